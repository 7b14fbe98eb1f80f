/**
 * What the browser does to a photo before uploading it (pure decisions, no DOM).
 *
 * After the upload checks on the original file (type, 10 MB), a photo is reduced so its longest
 * side is at most 2048 px (the server normalises to the same size anyway): fewer bytes
 * on the wire and less decoding on the server. JPEG and WebP photos that already fit go up
 * untouched; PNGs are re-encoded only when that makes them smaller; transparency is kept.
 */
/**
 * The contract's MAX_NORMALISED_SIDE (a unit test keeps them equal). Not imported, so the worker
 * bundle stays free of the contract and zod.
 */
export const MAX_UPLOAD_SIDE = 2048;

/** JPEG quality for reduced photos. */
const JPEG_QUALITY = 0.9;

export interface ImageFacts {
  /** The file's MIME type (already checked against the allowed types). */
  type: string;
  /** Decoded size, EXIF orientation applied. */
  width: number;
  height: number;
}

export type ReducePlan =
  /** Upload the original file as it is. */
  | { action: 'keep' }
  /**
   * Draw at width × height and encode. `checkAlpha`: the source can be transparent, so look for
   * transparency before choosing the format. `onlyIfSmaller`: the source already fits, so the
   * re-encoded file is used only when it has fewer bytes.
   */
  | { action: 'encode'; width: number; height: number; checkAlpha: boolean; onlyIfSmaller: boolean };

function normaliseType(type: string): string {
  const t = type.toLowerCase();
  return t === 'image/jpg' ? 'image/jpeg' : t;
}

/** The size that keeps the aspect ratio with the longest side at most `maxSide` (never enlarged). */
export function targetSize(
  width: number,
  height: number,
  maxSide: number = MAX_UPLOAD_SIDE,
): { width: number; height: number } {
  const longest = Math.max(width, height);
  if (longest <= maxSide) return { width, height };
  const scale = maxSide / longest;
  return {
    width: Math.max(1, Math.min(maxSide, Math.round(width * scale))),
    height: Math.max(1, Math.min(maxSide, Math.round(height * scale))),
  };
}

/**
 * `mustShrink`: the original cannot be sent (over the upload limit), so it is re-encoded even when
 * its size already fits, and the encoded file is used even if it is not smaller.
 */
export function planReduction(facts: ImageFacts, maxSide: number = MAX_UPLOAD_SIDE, mustShrink = false): ReducePlan {
  const type = normaliseType(facts.type);
  if (!(facts.width > 0 && facts.height > 0)) return { action: 'keep' };
  const fits = Math.max(facts.width, facts.height) <= maxSide;
  if (mustShrink) {
    const size = targetSize(facts.width, facts.height, maxSide);
    return {
      action: 'encode',
      ...size,
      checkAlpha: type === 'image/png' || type === 'image/webp',
      onlyIfSmaller: false,
    };
  }
  if (fits && (type === 'image/jpeg' || type === 'image/webp')) return { action: 'keep' };
  const size = targetSize(facts.width, facts.height, maxSide);
  return { action: 'encode', ...size, checkAlpha: type === 'image/png' || type === 'image/webp', onlyIfSmaller: fits };
}

/** The format of the reduced file: JPEG, unless the picture is transparent (then PNG, or WebP for a WebP source). */
export function outputFormat(sourceType: string, transparent: boolean): { type: string; quality: number | undefined } {
  if (!transparent) return { type: 'image/jpeg', quality: JPEG_QUALITY };
  return normaliseType(sourceType) === 'image/webp'
    ? { type: 'image/webp', quality: JPEG_QUALITY }
    : { type: 'image/png', quality: undefined };
}

/** True when any pixel of RGBA data is not fully opaque. */
export function hasTransparency(rgba: ArrayLike<number>): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i]! < 255) return true;
  return false;
}

/**
 * Whether to upload the encoded file: it must have the format asked for (a browser that cannot
 * encode it answers PNG), or at least keep transparency; when the source already fit, it must be smaller.
 */
export function shouldUseEncoded(
  plan: Extract<ReducePlan, { action: 'encode' }>,
  original: { size: number },
  encoded: { size: number; type: string },
  wanted: string,
): boolean {
  if (encoded.size <= 0) return false;
  if (encoded.type !== wanted && !(wanted === 'image/webp' && encoded.type === 'image/png')) return false;
  if (plan.onlyIfSmaller && encoded.size >= original.size) return false;
  return true;
}

/** The uploaded file's name: the original's base name with the new format's extension. */
export function reducedFileName(originalName: string, type: string): string {
  const base = originalName.replace(/\.[^./\\]*$/, '') || 'photo';
  const ext = type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg';
  return `${base}.${ext}`;
}
