/**
 * The checks a picked photo goes through in the page before it is accepted, the same the server
 * makes again before anything is charged: an allowed type (the specification's 'Unsupported
 * format…'), a JPEG, PNG or WEBP by its bytes too (not its name; a file that is not gets the
 * contract's `notAnImageMessage`, as on the server: 'Unsupported format…' for a type or extension
 * that is not allowed, 'This file is not a photo we can read…' for one that claims an allowed
 * type), a picture the browser can decode, large enough on its shorter side for a try-on. A photo over the
 * upload limit (bytes, or pixels) is shrunk in the browser rather than refused; the limit holds for
 * what is sent.
 */
import {
  MAX_IMAGE_PIXELS,
  MESSAGES,
  MIN_GARMENT_PHOTO_SIDE,
  MIN_PERSON_PHOTO_SIDE,
  detectImageKind,
  isAllowedImageType,
  notAnImageMessage,
} from '@aidressup/contract';

/** What the photo is for: the person, or a garment (the clothing or a whole outfit's bottom). */
export type PhotoRole = 'person' | 'garment';

const MIN_SIDE: Record<PhotoRole, { pixels: number; message: string }> = {
  person: { pixels: MIN_PERSON_PHOTO_SIDE, message: MESSAGES.personPhotoTooSmall },
  garment: { pixels: MIN_GARMENT_PHOTO_SIDE, message: MESSAGES.clothingPhotoTooSmall },
};

export type PhotoCheck =
  { ok: true; file: File; width: number; height: number; shrunk: boolean } | { ok: false; message: string };

export interface PhotoCheckDeps {
  /** The picture's size upright (EXIF orientation applied), or null when it does not decode. */
  measure: (file: Blob) => Promise<{ width: number; height: number } | null>;
  /** The photo shrunk for upload, or null when the browser cannot (see `shrinkForUpload`). */
  shrink: (file: File) => Promise<File | null>;
  /** Told when shrinking starts (it can take a second or two on a phone). */
  onShrinking?: () => void;
}

/** The photo's decoded size, upright, by createImageBitmap (else an <img>); null when it does not decode. */
export async function measureImage(file: Blob): Promise<{ width: number; height: number } | null> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
      const size = { width: bitmap.width, height: bitmap.height };
      bitmap.close();
      return size.width > 0 && size.height > 0 ? size : null;
    } catch {
      return null;
    }
  }
  const url = URL.createObjectURL(file);
  try {
    return await new Promise((resolve) => {
      const img = new Image();
      img.onload = () => resolve(img.naturalWidth > 0 ? { width: img.naturalWidth, height: img.naturalHeight } : null);
      img.onerror = () => resolve(null);
      img.src = url;
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The first bytes of a file (enough for its signature). */
async function head(file: Blob, n = 32): Promise<Uint8Array> {
  const slice = file.slice(0, n);
  if (typeof slice.arrayBuffer === 'function') return new Uint8Array(await slice.arrayBuffer());
  return new Uint8Array(await new Response(slice).arrayBuffer());
}

/**
 * Checks one picked photo. Answers the file to use
 * (the photo itself, or shrunk) or the message to show.
 */
export async function checkPhoto(
  file: File,
  role: PhotoRole,
  maxBytes: number,
  deps: PhotoCheckDeps,
): Promise<PhotoCheck> {
  // The specification's rule first: the file's type must be one of the four allowed.
  if (!isAllowedImageType(file.type)) return { ok: false, message: MESSAGES.unsupportedFormat };
  const bytes = await head(file);
  if (!detectImageKind(bytes)) return { ok: false, message: notAnImageMessage(bytes, file) };
  const size = await deps.measure(file);
  if (!size) return { ok: false, message: MESSAGES.notAPhoto };
  const min = MIN_SIDE[role];
  if (Math.min(size.width, size.height) < min.pixels) return { ok: false, message: min.message };
  if (file.size <= maxBytes && size.width * size.height <= MAX_IMAGE_PIXELS) {
    return { ok: true, file, width: size.width, height: size.height, shrunk: false };
  }
  deps.onShrinking?.();
  const smaller = await deps.shrink(file);
  if (!smaller || smaller.size > maxBytes) return { ok: false, message: MESSAGES.fileTooLarge };
  const shrunkSize = (await deps.measure(smaller)) ?? size;
  return { ok: true, file: smaller, width: shrunkSize.width, height: shrunkSize.height, shrunk: true };
}

/** Shrinks a photo over the limit, loading the reduction code on first use; null when it cannot. */
export function shrinkLazily(file: File): Promise<File | null> {
  return import('./prepare-upload').then((m) => m.shrinkForUpload(file)).catch(() => null);
}
