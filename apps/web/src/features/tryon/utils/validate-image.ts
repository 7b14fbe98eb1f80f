import { isAllowedImageType, MAX_UPLOAD_BYTES, MESSAGES } from '@aidressup/contract';

/** Checks a picked file before upload. Returns the message to show, or null. */
export function validateImageFile(
  file: Pick<File, 'type' | 'size'>,
  maxBytes: number = MAX_UPLOAD_BYTES,
): string | null {
  if (!isAllowedImageType(file.type)) return MESSAGES.unsupportedFormat;
  if (file.size > maxBytes) return MESSAGES.fileTooLarge;
  return null;
}
