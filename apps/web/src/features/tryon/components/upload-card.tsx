import { useEffect, useId, useRef, useState, type DragEvent, type ReactNode, type Ref } from 'react';
import { ALLOWED_IMAGE_TYPES } from '@aidressup/contract';
import { AlertIcon, CameraIcon, RefreshIcon, TrashIcon, UploadIcon } from '../../../components/ui/icons';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { rich, useT } from '../../../i18n/use-t';
import { cn } from '../../../lib/cn';
import type { ImageUpload } from '../hooks/use-image-upload';

export interface UploadCardProps {
  /** Short id used for test ids: person | clothing | bottom (a whole outfit's optional bottom). */
  kind: 'person' | 'clothing' | 'bottom';
  title: string;
  /** What the photo is, for button labels: "person photo" (translated). */
  noun: string;
  description: string;
  icon: ReactNode;
  upload: ImageUpload;
  disabled?: boolean;
  maxMegabytes: number;
  /** The camera a "Take a photo" button opens on touch devices. */
  capture?: 'environment' | 'user';
  /** The card's section (paste goes to the card that has focus). */
  cardRef?: Ref<HTMLElement>;
  /** More at the card's foot: keeping the person photo, more garments for one press. */
  footer?: ReactNode;
}

export function UploadCard({
  kind,
  title,
  noun,
  description,
  icon,
  upload,
  disabled,
  maxMegabytes,
  capture = 'environment',
  cardRef,
  footer,
}: UploadCardProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const titleId = useId();
  const errorId = useId();
  const replaceRef = useRef<HTMLButtonElement>(null);
  const dropzoneRef = useRef<HTMLButtonElement>(null);
  const pick = () => inputRef.current?.click();
  const t = useT();
  // After a pick the drop zone gives way to the preview: the focus stays on the card (its Replace
  // button) instead of falling back to the top of the page. Only when nothing else has it since.
  const picks = upload.picks;
  useEffect(() => {
    if (picks === 0) return;
    const active = document.activeElement;
    if (!active || active === document.body) replaceRef.current?.focus({ preventScroll: true });
  }, [picks]);
  const removePhoto = () => {
    upload.remove();
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if (!active || active === document.body) dropzoneRef.current?.focus({ preventScroll: true });
    });
  };
  const localize = useLocalizeMessage();
  const srOnly = (text: string) => <span className="sr-only">{text}</span>;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (disabled) return;
    upload.select(e.dataTransfer.files?.[0]);
  };
  const dragProps = {
    onDragEnter: (e: DragEvent) => {
      e.preventDefault();
      if (!disabled) setDragging(true);
    },
    onDragOver: (e: DragEvent) => {
      e.preventDefault();
      if (!disabled) e.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (e: DragEvent) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop,
  };

  return (
    <section
      ref={cardRef}
      aria-labelledby={titleId}
      data-testid={`upload-${kind}`}
      data-upload-card={kind}
      className="flex min-w-0 flex-col rounded-3xl border border-ink-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex items-center gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700">{icon}</span>
        <div className="min-w-0">
          <h3 id={titleId} className="font-bold text-ink-950" data-testid={`upload-${kind}-title`}>
            {title}
          </h3>
          <p className="text-sm text-pretty text-ink-500">{description}</p>
        </div>
      </div>

      <div className="mt-4 flex-1" {...dragProps}>
        {upload.previewUrl ? (
          <div
            className={cn(
              'relative overflow-hidden rounded-2xl bg-ink-100 ring-1 ring-ink-200',
              dragging && 'ring-2 ring-brand-500',
            )}
          >
            <img
              src={upload.previewUrl}
              alt={t('tryon.upload.previewAlt', { title })}
              className="aspect-[3/4] w-full object-contain"
              data-testid={`upload-${kind}-preview`}
            />
            {/* Each button at least as wide as its label; when both do not fit side by side (a narrow card,
                a long word), the second goes under the first. */}
            <div className="absolute inset-x-0 bottom-0 flex flex-wrap gap-2 bg-gradient-to-t from-ink-950/70 to-transparent p-3 pt-10">
              <button
                ref={replaceRef}
                type="button"
                onClick={pick}
                disabled={disabled}
                className="inline-flex min-h-9 flex-1 basis-auto items-center justify-center gap-1.5 rounded-lg bg-white/95 px-3 text-sm font-semibold whitespace-nowrap text-ink-900 hover:bg-white disabled:opacity-60"
              >
                <RefreshIcon className="size-4" />
                {rich(t('tryon.upload.replace', { noun }), { 0: srOnly })}
              </button>
              <button
                type="button"
                onClick={removePhoto}
                disabled={disabled}
                className="inline-flex min-h-9 flex-1 basis-auto items-center justify-center gap-1.5 rounded-lg bg-white/95 px-3 text-sm font-semibold whitespace-nowrap text-red-700 hover:bg-white disabled:opacity-60"
              >
                <TrashIcon className="size-4" />
                {rich(t('tryon.upload.remove', { noun }), { 0: srOnly })}
              </button>
            </div>
          </div>
        ) : (
          <button
            ref={dropzoneRef}
            type="button"
            onClick={pick}
            disabled={disabled}
            aria-describedby={upload.error ? errorId : undefined}
            data-testid={`upload-${kind}-dropzone`}
            className={cn(
              'flex aspect-[3/4] w-full flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed p-6 text-center transition-colors',
              dragging
                ? 'border-brand-500 bg-brand-50'
                : 'border-ink-300 bg-ink-50 hover:border-brand-400 hover:bg-brand-50/50',
            )}
          >
            <span className="grid size-14 place-items-center rounded-2xl bg-white text-brand-600 shadow-sm">
              <UploadIcon className="size-7" />
            </span>
            <span className="font-semibold text-ink-900">{t('tryon.upload.cta', { noun })}</span>
            <span className="text-sm text-ink-500">
              {t('tryon.upload.hint')}
              <br />
              {t('tryon.upload.formats', { max: maxMegabytes })}
            </span>
          </button>
        )}
      </div>
      {upload.previewUrl ? null : (
        // Phones and tablets: straight to the camera (a coarse pointer is a touch screen).
        <button
          type="button"
          onClick={() => cameraRef.current?.click()}
          disabled={disabled}
          className="mt-3 hidden h-11 items-center justify-center gap-2 rounded-xl bg-white text-sm font-semibold text-ink-800 ring-1 ring-ink-200 ring-inset hover:bg-ink-50 disabled:opacity-60 pointer-coarse:inline-flex"
          data-testid={`upload-${kind}-camera`}
        >
          <CameraIcon className="size-5" />
          {rich(t('tryon.upload.camera', { noun }), { 0: srOnly })}
        </button>
      )}
      <input
        ref={cameraRef}
        type="file"
        name={`${kind}-camera`}
        accept="image/*"
        capture={capture}
        className="hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid={`upload-${kind}-camera-input`}
        onChange={(e) => {
          upload.select(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <input
        ref={inputRef}
        type="file"
        name={`${kind}-photo`}
        accept={ALLOWED_IMAGE_TYPES.join(',')}
        className="hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid={`upload-${kind}-input`}
        onChange={(e) => {
          upload.select(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {upload.shrinking ? (
        <p
          role="status"
          className="mt-3 rounded-xl bg-brand-50 p-3 text-sm font-medium text-brand-900"
          data-testid={`upload-${kind}-shrinking`}
        >
          {t('tryon.upload.shrinking')}
        </p>
      ) : null}
      {upload.error ? (
        <p
          id={errorId}
          role="alert"
          className="mt-3 flex items-start gap-2 rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800"
          data-testid={`upload-${kind}-error`}
        >
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          {localize(upload.error)}
        </p>
      ) : null}
      {footer}
    </section>
  );
}
