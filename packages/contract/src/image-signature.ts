/**
 * Image types by their first bytes ("magic bytes"), never by a file name or a Content-Type.
 * Pure: works on any Uint8Array (a Node Buffer is one), in the browser as on the server.
 *
 * - JPEG: FF D8 FF
 * - PNG: the full 8-byte signature 89 50 4E 47 0D 0A 1A 0A
 * - WEBP: "RIFF", four bytes of size, then "WEBP"
 */
export type ImageKind = 'jpeg' | 'png' | 'webp';
export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp';

export const IMAGE_MIME_OF: Record<ImageKind, ImageMime> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

const JPEG_SIGNATURE = [0xff, 0xd8, 0xff] as const;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
/** "RIFF" at 0 and "WEBP" at 8. */
const RIFF = [0x52, 0x49, 0x46, 0x46] as const;
const WEBP = [0x57, 0x45, 0x42, 0x50] as const;

function startsWithAt(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

/** The image type by its first bytes, or null when it is not JPEG, PNG or WEBP. */
export function detectImageKind(bytes: Uint8Array): ImageKind | null {
  if (startsWithAt(bytes, JPEG_SIGNATURE)) return 'jpeg';
  if (startsWithAt(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWithAt(bytes, RIFF) && startsWithAt(bytes, WEBP, 8)) return 'webp';
  return null;
}

/** The image's MIME type by its first bytes, or null when it is not JPEG, PNG or WEBP. */
export function detectImageMime(bytes: Uint8Array): ImageMime | null {
  const kind = detectImageKind(bytes);
  return kind ? IMAGE_MIME_OF[kind] : null;
}

/**
 * True for an image in a format the product does not take (GIF, BMP, TIFF, HEIC/HEIF, AVIF) by its
 * first bytes: such a file gets "Unsupported format…" whatever it claims to be (see
 * `notAnImageMessage` in upload-rules.ts for a file that is no image at all).
 */
export function isOtherImageFormat(bytes: Uint8Array): boolean {
  const ascii = (offset: number, text: string) =>
    startsWithAt(
      bytes,
      [...text].map((c) => c.charCodeAt(0)),
      offset,
    );
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a') || ascii(0, 'BM')) return true;
  if (startsWithAt(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWithAt(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return true;
  // ISO base media: "ftyp" at 4, then an image brand (HEIC, HEIF, AVIF).
  if (!ascii(4, 'ftyp')) return false;
  return ['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis'].some((brand) => ascii(8, brand));
}
