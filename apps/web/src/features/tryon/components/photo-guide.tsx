import { ImageIcon, ShirtIcon, UserIcon } from '../../../components/ui/icons';

/** Photo guide: advice for photos that give good results. */
export function PhotoGuide() {
  const tips = [
    { Icon: UserIcon, title: 'Person', text: 'Full body, standing straight, plain background.' },
    {
      Icon: ShirtIcon,
      title: 'Clothing',
      text: 'Laid flat or on a hanger, on a white background, complete and wrinkle-free.',
    },
    { Icon: ImageIcon, title: 'Best size', text: '768x1024 pixels, as JPG or PNG.' },
  ];
  return (
    <section
      aria-labelledby="photo-guide-title"
      className="rounded-3xl border border-brand-100 bg-gradient-to-br from-brand-50 to-fuchsia-50 p-5 sm:p-6"
      data-testid="photo-guide"
    >
      <h2 id="photo-guide-title" className="text-base font-bold text-ink-950">
        Photo guide for the best results
      </h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-3 lg:grid-cols-1">
        {tips.map(({ Icon, title, text }) => (
          <li key={title} className="flex gap-3">
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
