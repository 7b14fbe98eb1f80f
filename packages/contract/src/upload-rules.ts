/**
 * Which message a refused upload gets, decided once for the page (the upload cards' check) and the
 * server (every upload route), so both say the same thing about the same file.
 *
 * Whether a file is taken is decided by its bytes (a JPEG, PNG or WEBP by its signature, then a
 * picture that decodes), never by its name or type. For a file whose bytes are not a JPEG, PNG or
 * WEBP, the message depends on what the file claims to be:
 *
 * - the specification's 'Unsupported format. Use JPG, PNG or WEBP.' for a type that is not allowed:
 *   an image in another format by its bytes (GIF, BMP, TIFF, HEIC, AVIF), a MIME type other than
 *   the four allowed (`text/plain`, `application/pdf`, `image/gif`), a file name whose extension is
 *   not one of the allowed (`.txt`, `.gif`, `.pdf`), or a file that claims no image type at all;
 * - 'This file is not a photo we can read. Use JPG, PNG or WEBP.' for a file that claims an allowed
 *   type (its MIME type and its extension allowed, or one of them allowed and the other silent)
 *   and is not one: a PDF renamed `holiday.jpg`.
 */
import { isOtherImageFormat } from './image-signature.js';
import { ALLOWED_IMAGE_EXTENSIONS, isAllowedImageType } from './limits.js';
import { MESSAGES } from './messages.js';

/** What a file says about itself: its MIME type and its name, as the browser or the form part gave them. */
export interface DeclaredFile {
  type?: string | null | undefined;
  name?: string | null | undefined;
}

/**
 * MIME types that say nothing about the content: none, or the generic one browsers and curl send
 * for a type they do not know (a `.webp` file from curl is `application/octet-stream`).
 */
const SILENT_TYPES: ReadonlySet<string> = new Set(['', 'application/octet-stream']);

/** The extension of a file name (`.gif`, lower case, from the last dot), or null when it has none. */
export function fileExtension(name: string | null | undefined): string | null {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 && dot < base.length - 1 ? base.slice(dot).toLowerCase() : null;
}

export function isAllowedImageExtension(extension: string): boolean {
  return (ALLOWED_IMAGE_EXTENSIONS as readonly string[]).includes(extension.toLowerCase());
}

/**
 * True when the file claims an allowed image type: its MIME type is one of the four allowed (or
 * silent) and its extension is one of the allowed (or absent), and at least one of them speaks.
 */
export function claimsAllowedImageType(declared: DeclaredFile): boolean {
  const type = (declared.type ?? '').split(';')[0]!.trim().toLowerCase();
  const extension = fileExtension(declared.name);
  const typeSilent = SILENT_TYPES.has(type);
  if (!typeSilent && !isAllowedImageType(type)) return false;
  if (extension !== null && !isAllowedImageExtension(extension)) return false;
  return !typeSilent || extension !== null;
}

/**
 * The message for a file whose first bytes are not a JPEG, PNG or WEBP (see the top of this file):
 * 'Unsupported format…' for a type that is not allowed, 'This file is not a photo we can read…'
 * for a file that claims an allowed type.
 */
export function notAnImageMessage(bytes: Uint8Array, declared: DeclaredFile): string {
  if (isOtherImageFormat(bytes) || !claimsAllowedImageType(declared)) return MESSAGES.unsupportedFormat;
  return MESSAGES.notAPhoto;
}
