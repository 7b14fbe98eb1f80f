import { ImageIcon, ShirtIcon, UserIcon } from '../../../components/ui/icons';
import { useT } from '../../../i18n/use-t';

/** Photo guide: advice for photos that give good results. */
export function PhotoGuide() {
  const t = useT();
  const tips = [
    { key: 'person', Icon: UserIcon, title: t('tryon.guide.person.title'), text: t('tryon.guide.person.text') },
    {
      key: 'clothing',
      Icon: ShirtIcon,
      title: t('tryon.guide.clothing.title'),
      text: t('tryon.guide.clothing.text'),
    },
    {
      key: 'size',
      Icon: ImageIcon,
      title: t('tryon.guide.size.title'),
      text: t('tryon.guide.size.text', { width: 768, height: 1024 }),
    },
  ];
  return (
    <section
      aria-labelledby="photo-guide-title"
      className="rounded-3xl border border-brand-100 bg-gradient-to-br from-brand-50 to-fuchsia-50 p-5 sm:p-6"
      data-testid="photo-guide"
    >
      <h2 id="photo-guide-title" className="text-base font-bold text-ink-950">
        {t('tryon.guide.title')}
      </h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-3 lg:grid-cols-1">
        {tips.map(({ key, Icon, title, text }) => (
          <li key={key} className="flex gap-3">
            <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-white text-brand-700 shadow-sm">
              <Icon className="size-5" />
            </span>
            <p className="text-sm leading-6 text-ink-700">
              <span className="block font-semibold text-ink-950">{title}</span>
              {text}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
