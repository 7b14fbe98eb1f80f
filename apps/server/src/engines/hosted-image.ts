/**
 * Image handling shared by the hosted engines: shrink the photos before upload, read the
 * provider's answer back, and give the result the person photo's proportions again.
 */
import sharp from 'sharp';
import { EngineError, type TryOnOutput } from '@aidressup/engine';
import { GEMINI_INPUT, HOSTED_ENGINE_MESSAGES, detectImageMime, type HostedInputSpec } from '@aidressup/contract';

/** Limits on what an engine may ask for (see HostedInputSpec). */
export const HOSTED_MIN_SIDE = 512;
export const HOSTED_MAX_SIDE = 2048;
/** Largest result we accept from a provider. */
export const MAX_RESULT_BYTES = 25 * 1024 * 1024;

export interface ReducedImage {
  /** JPEG bytes, orientation applied, no metadata. */
  data: Buffer;
  width: number;
  height: number;
  mimeType: 'image/jpeg';
}

/**
 * Re-encode a photo as JPEG (quality `spec.jpegQuality`) with EXIF orientation applied and
 * all metadata dropped, its longest side brought into [spec.minSide, spec.maxSide]: larger
 * photos are scaled down to maxSide, smaller ones up to minSide, proportions kept. Each
 * engine declares its own spec (GEMINI_INPUT, FASHN_INPUT); the default is Gemini's 1024 px.
 */
export async function reduceImage(input: Uint8Array, spec: HostedInputSpec = GEMINI_INPUT): Promise<ReducedImage> {
  if (spec.minSide < HOSTED_MIN_SIDE || spec.maxSide > HOSTED_MAX_SIDE || spec.minSide > spec.maxSide) {
    throw new RangeError(
      `input sides must be within ${HOSTED_MIN_SIDE}–${HOSTED_MAX_SIDE} (got ${spec.minSide}–${spec.maxSide})`,
    );
  }
  if (!(spec.jpegQuality >= 50 && spec.jpegQuality <= 100)) throw new RangeError('jpegQuality must be within 50–100');
  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, { failOn: 'error' }).metadata();
  } catch (err) {
    throw new EngineError(
      'ENGINE_FAILED',
      HOSTED_ENGINE_MESSAGES.photoUnreadable,
      `input image unreadable: ${(err as Error).message}`,
    );
  }
  if (!meta.width || !meta.height) {
    throw new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.photoUnreadable, 'input image has no dimensions');
  }
  // EXIF orientations 5–8 swap width and height.
  const swapped = (meta.orientation ?? 1) >= 5;
  const w = swapped ? meta.height : meta.width;
  const h = swapped ? meta.width : meta.height;
  const longest = Math.max(w, h);
  const targetSide = Math.min(spec.maxSide, Math.max(spec.minSide, longest));
  // Already what we would produce (a clean, upright JPEG of a wanted size): send as is.
  if (
    meta.format === 'jpeg' &&
    longest === targetSide &&
    (meta.orientation ?? 1) === 1 &&
    !meta.exif &&
    !meta.icc &&
    !meta.xmp &&
    !meta.iptc &&
    !meta.comments?.length &&
    (meta.channels ?? 3) === 3
  ) {
    return {
      data: Buffer.from(input.buffer, input.byteOffset, input.byteLength),
      width: w,
      height: h,
      mimeType: 'image/jpeg',
    };
  }
  const scale = targetSide / longest;
  const width = Math.max(1, Math.round(w * scale));
  const height = Math.max(1, Math.round(h * scale));

  let pipeline = sharp(input, { failOn: 'error' }).rotate();
  if (width !== w || height !== h)
    pipeline = pipeline.resize(width, height, { fit: 'fill', kernel: scale < 1 ? 'lanczos3' : 'cubic' });
  if (meta.hasAlpha) pipeline = pipeline.flatten({ background: '#ffffff' });
  const data = await pipeline
    .jpeg({ quality: spec.jpegQuality, mozjpeg: false, chromaSubsampling: '4:2:0' })
    .toBuffer();
  return { data, width, height, mimeType: 'image/jpeg' };
}

/** Recognise JPEG, PNG and WEBP by their first bytes (the contract's one signature check). */
export function sniffImageType(bytes: Uint8Array): TryOnOutput['mimeType'] | undefined {
  return detectImageMime(bytes) ?? undefined;
}

/**
 * Check the provider's image and give it the person photo's aspect ratio again. Providers
 * answer at their own fixed proportions (by padding the person photo or by the nearest
 * ratio they support); a centred crop removes that difference without distorting anything.
 * A result already within 1.5 % of the wanted ratio is passed through untouched.
 */
export async function finishResult(
  bytes: Uint8Array,
  target: { width: number; height: number },
  provider: string,
): Promise<TryOnOutput> {
  if (bytes.length > MAX_RESULT_BYTES) {
    throw new EngineError('ENGINE_FAILED', undefined, `${provider}: result image too large (${bytes.length} bytes)`);
  }
  const type = sniffImageType(bytes);
  if (!type) throw new EngineError('ENGINE_FAILED', undefined, `${provider}: result is not a JPEG, PNG or WEBP image`);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes, { failOn: 'error' }).metadata();
  } catch (err) {
    throw new EngineError(
      'ENGINE_FAILED',
      undefined,
      `${provider}: result image unreadable: ${(err as Error).message}`,
    );
  }
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (w < 16 || h < 16)
    throw new EngineError('ENGINE_FAILED', undefined, `${provider}: result image too small (${w}x${h})`);
  const wanted = target.width / target.height;
  const actual = w / h;
  if (Math.abs(actual / wanted - 1) <= 0.015) {
    return { image: bytes, mimeType: type };
  }
  let cropW = w;
  let cropH = h;
  if (actual > wanted) cropW = Math.max(1, Math.round(h * wanted));
  else cropH = Math.max(1, Math.round(w / wanted));
  const left = Math.floor((w - cropW) / 2);
  const top = Math.floor((h - cropH) / 2);
  const image = await sharp(bytes).extract({ left, top, width: cropW, height: cropH }).jpeg({ quality: 92 }).toBuffer();
  return { image, mimeType: 'image/jpeg' };
}

/** Decode a `data:<mime>;base64,<data>` URL; undefined if it is not one. */
export function decodeDataUrl(url: string): Buffer | undefined {
  const m = /^data:([a-z]+\/[a-z0-9.+-]+)?(;[^,]*)?,/i.exec(url);
  if (!m) return undefined;
  const payload = url.slice(m[0].length);
  return m[2]?.toLowerCase().includes('base64')
    ? Buffer.from(payload, 'base64')
    : Buffer.from(decodeURIComponent(payload), 'latin1');
}

export function toDataUrl(image: ReducedImage): string {
  return `data:${image.mimeType};base64,${image.data.toString('base64')}`;
}
