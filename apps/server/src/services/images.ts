/**
 * Upload validation and normalisation, the first step of a try-on: the type comes from the magic bytes,
 * never from the name or Content-Type; the image must decode and stay under 40 megapixels;
 * it is turned upright (EXIF orientation), stripped of metadata and reduced so its longest side
 * is at most 2048 pixels (see `normalisedSide`).
 */
import sharp from 'sharp';
import {
  IMAGE_MIME_OF,
  MAX_IMAGE_PIXELS,
  MAX_NORMALISED_SIDE,
  MAX_UPLOAD_BYTES,
  MESSAGES,
  MIN_GARMENT_PHOTO_SIDE,
  MIN_PERSON_PHOTO_SIDE,
  detectImageKind,
  notAnImageMessage,
  type DeclaredFile,
  type ImageKind,
  type ImageMime,
} from '@aidressup/contract';
import { AppError } from '../errors.js';

export type { ImageKind, ImageMime };
/** The MIME type of each image kind (the contract's table). */
export const MIME_OF: Record<ImageKind, ImageMime> = IMAGE_MIME_OF;
export const EXTENSION_OF: Record<ImageMime, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
};

/** The image type by its first bytes (the contract's one signature check), or null when it is not JPEG, PNG or WEBP. */
export { detectImageKind };

export interface NormalisedImage {
  data: Buffer;
  mimeType: ImageMime;
  width: number;
  height: number;
}

/** The engines work at about 1024 pixels (the built-in one at 1024, hosted ones send 1024 by default). */
export const MIN_WORKING_SIDE = 1000;

/**
 * The longest side to reduce an image to: never above 2048. A JPEG above 2048 pixels whose third
 * is still at least MIN_WORKING_SIDE is reduced to that third: the decoder then reads it at half
 * scale (JPEG shrink-on-load, which sharp uses only for a reduction of 3× or more when the factor
 * is 2) and resamples the rest, about three times cheaper than decoding the whole photo.
 * A 4032-pixel phone photo becomes 1344 pixels.
 */
export function normalisedSide(kind: ImageKind, longest: number): number {
  if (kind !== 'jpeg' || longest <= MAX_NORMALISED_SIDE) return MAX_NORMALISED_SIDE;
  const third = Math.floor(longest / 3);
  return third >= MIN_WORKING_SIDE && third <= MAX_NORMALISED_SIDE ? third : MAX_NORMALISED_SIDE;
}

/** The smallest shorter side a photo may have, and the message for one below it. */
export interface MinSide {
  pixels: number;
  message: string;
}

/** The try-on's minimum sizes (the contract's): a person photo, a clothing photo. */
export const MIN_SIDE = {
  person: { pixels: MIN_PERSON_PHOTO_SIDE, message: MESSAGES.personPhotoTooSmall },
  garment: { pixels: MIN_GARMENT_PHOTO_SIDE, message: MESSAGES.clothingPhotoTooSmall },
} as const satisfies Record<string, MinSide>;

/**
 * An uploaded file: its bytes and what its form part said of it (MIME type, file name). Only the
 * bytes decide whether it is taken; the rest only chooses the message for a file that is not an
 * image (`notAnImageMessage`). A bare Buffer claims nothing.
 */
export interface Upload {
  data: Buffer;
  declared?: DeclaredFile | undefined;
}

function asUpload(input: Buffer | Upload): Upload {
  return Buffer.isBuffer(input) ? { data: input } : input;
}

/** What the upload checks learnt about an image before decoding it. */
interface InspectedUpload {
  kind: ImageKind;
  width: number;
  height: number;
  hasAlpha: boolean;
}

/**
 * The checks every uploaded image goes through before it is decoded: at most 10 MB, JPEG, PNG or
 * WEBP by its bytes, a readable header, at most 40 megapixels and, with `minSide`, at least that
 * on its shorter side. Throws AppError with FILE_TOO_LARGE, UNSUPPORTED_FORMAT, IMAGE_UNREADABLE,
 * IMAGE_TOO_MANY_PIXELS or IMAGE_TOO_SMALL.
 */
async function inspectUpload(upload: Upload, label: string, minSide?: MinSide): Promise<InspectedUpload> {
  const bytes = upload.data;
  if (bytes.length > MAX_UPLOAD_BYTES) throw new AppError('FILE_TOO_LARGE', MESSAGES.fileTooLarge);
  const kind = detectImageKind(bytes);
  // Not a JPEG, PNG or WEBP by its bytes: a type that is not allowed (the specification's
  // 'Unsupported format…'), or a file that claims an allowed type and is no image (a PDF renamed
  // .jpg), which gets its own message so the shopper does not just try again.
  if (!kind)
    throw new AppError('UNSUPPORTED_FORMAT', notAnImageMessage(bytes, upload.declared ?? {}), { field: label });

  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('IMAGE_UNREADABLE', MESSAGES.imageUnreadable, { field: label });
  }
  if (!meta.width || !meta.height) throw new AppError('IMAGE_UNREADABLE', MESSAGES.imageUnreadable, { field: label });
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) {
    throw new AppError('IMAGE_TOO_MANY_PIXELS', MESSAGES.imageTooManyPixels, { field: label });
  }
  // The shorter side does not depend on the EXIF orientation: checked before anything is decoded.
  if (minSide && Math.min(meta.width, meta.height) < minSide.pixels) {
    throw new AppError('IMAGE_TOO_SMALL', minSide.message, { field: label });
  }
  return { kind, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha === true };
}

/**
 * Validates one uploaded image and returns it normalised. Throws AppError with
 * UNSUPPORTED_FORMAT, FILE_TOO_LARGE, IMAGE_UNREADABLE, IMAGE_TOO_MANY_PIXELS or (with `minSide`)
 * IMAGE_TOO_SMALL. Opaque images become JPEG; images with transparency stay lossless (PNG).
 */
export async function validateAndNormalise(
  input: Buffer | Upload,
  label: string,
  minSide?: MinSide,
): Promise<NormalisedImage> {
  const upload = asUpload(input);
  const bytes = upload.data;
  const { kind, width, height, hasAlpha } = await inspectUpload(upload, label, minSide);
  const target = normalisedSide(kind, Math.max(width, height));
  try {
    const pipeline = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', sequentialRead: true })
      .rotate()
      .resize({ width: target, height: target, fit: 'inside', withoutEnlargement: true });
    const out = hasAlpha
      ? await pipeline.png({ compressionLevel: 2 }).toBuffer({ resolveWithObject: true })
      : await pipeline.jpeg({ quality: 92, optimiseCoding: false }).toBuffer({ resolveWithObject: true });
    return {
      data: out.data,
      mimeType: hasAlpha ? 'image/png' : 'image/jpeg',
      width: out.info.width,
      height: out.info.height,
    };
  } catch {
    throw new AppError('IMAGE_UNREADABLE', MESSAGES.imageUnreadable, { field: label });
  }
}

/** An upload decoded to raw RGBA pixels, for analysis (never stored). */
export interface DecodedRgba {
  data: Buffer;
  width: number;
  height: number;
  /** The image has an alpha channel (its pixels may still all be opaque). */
  hasAlpha: boolean;
}

/**
 * Validates one uploaded image as `validateAndNormalise` does (the same refusals) and decodes it,
 * upright, straight to RGBA with its longest side at most `maxSide` (a large JPEG is read at a
 * reduced scale). For a quick look at the photo, not for a try-on.
 */
export async function validateAndDecodeRgba(
  input: Buffer | Upload,
  label: string,
  maxSide: number,
): Promise<DecodedRgba> {
  const upload = asUpload(input);
  const bytes = upload.data;
  const { hasAlpha } = await inspectUpload(upload, label);
  try {
    const out = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      // Greyscale and CMYK photos too: always 8-bit sRGB plus alpha, four bytes a pixel.
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (out.info.channels !== 4) throw new Error(`decoded to ${out.info.channels} channels`);
    return { data: out.data, width: out.info.width, height: out.info.height, hasAlpha };
  } catch {
    throw new AppError('IMAGE_UNREADABLE', MESSAGES.imageUnreadable, { field: label });
  }
}

/**
 * Makes an engine's output safe to store: a JPEG, PNG or WEBP by its bytes, with no metadata
 * (re-encoded only when it carries EXIF/XMP/IPTC), and, with `maxSide`, no longer than that on
 * its longest side (reduced and re-encoded when it is). Returns null when it is not an image.
 */
export async function cleanEngineOutput(
  image: Uint8Array,
  options: { maxSide?: number | undefined } = {},
): Promise<{ data: Buffer; mimeType: ImageMime } | null> {
  const kind = detectImageKind(image);
  if (!kind) return null;
  const data = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  try {
    const meta = await sharp(data).metadata();
    if (!meta.width || !meta.height) return null;
    const tooLarge = options.maxSide !== undefined && Math.max(meta.width, meta.height) > options.maxSide;
    if (meta.exif || meta.xmp || meta.iptc || tooLarge) {
      let pipeline = sharp(data).rotate();
      if (tooLarge)
        pipeline = pipeline.resize({
          width: options.maxSide,
          height: options.maxSide,
          fit: 'inside',
          withoutEnlargement: true,
        });
      const clean = await (kind === 'jpeg' ? pipeline.jpeg({ quality: 92 }) : pipeline.toFormat(kind)).toBuffer();
      return { data: clean, mimeType: MIME_OF[kind] };
    }
  } catch {
    return null;
  }
  return { data, mimeType: MIME_OF[kind] };
}
