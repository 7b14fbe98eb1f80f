/**
 * The photos in and out of the pipeline: the person photo decoded at its own size and at the
 * working size, the garment photo decoded, and the result laid back over the photo at its own
 * size and encoded.
 */
import sharp from 'sharp';
import { EngineError } from './types.js';
import { decodeImage, type FloatMap, type RGBAImage } from './image.js';
import { positiveBox } from './composite.js';

const GARMENT_MAX_SIDE = 512;
/** The person photo at its own size (RGB, EXIF-upright) and at the working size (RGBA). */
export interface PersonPhoto {
  full: { data: Buffer; width: number; height: number };
  work: RGBAImage;
}

/**
 * Every per-pixel stage runs on the person photo reduced to this long side; only the
 * garment layer is scaled back up and laid over the photo at its own resolution, so the
 * face, hair and background keep every original pixel.
 */
const WORK_MAX_SIDE = 640;

function unreadable(e: unknown): EngineError {
  return new EngineError('ENGINE_FAILED', 'The image could not be read.', (e as Error).message);
}

export async function decodePerson(bytes: Uint8Array): Promise<PersonPhoto> {
  try {
    const { data, info } = await sharp(bytes, { failOn: 'error' })
      .rotate()
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const full = { data, width: info.width, height: info.height };
    const scale = Math.min(1, WORK_MAX_SIDE / Math.max(info.width, info.height));
    const w = Math.max(1, Math.round(info.width * scale));
    const h = Math.max(1, Math.round(info.height * scale));
    const raw = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
      .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
      .ensureAlpha()
      .raw()
      .toBuffer();
    return {
      full,
      work: { width: w, height: h, data: new Uint8ClampedArray(raw.buffer, raw.byteOffset, raw.byteLength) },
    };
  } catch (e) {
    throw unreadable(e);
  }
}

export async function decodeGarment(bytes: Uint8Array) {
  try {
    return await decodeImage(bytes, GARMENT_MAX_SIDE);
  } catch (e) {
    throw unreadable(e);
  }
}

/**
 * Lay the working-size result over the photo at its own size: the garment layer (the
 * changed pixels and their alpha, premultiplied) is scaled up bilinearly inside its
 * bounding box; every other pixel is the original. The photo's buffer is blended in place.
 */
export async function renderOutput(
  photo: PersonPhoto,
  result: { image: RGBAImage; alpha: FloatMap },
): Promise<Uint8Array> {
  const { work, full } = photo;
  const ww = work.width;
  const wh = work.height;
  const src = result.image.data;
  const al = result.alpha.data;
  const box = positiveBox(al, ww, wh);
  const out = full.data;
  if (box) {
    const { x0: bx0, y0: by0, x1: bx1, y1: by1 } = box;
    const W = full.width;
    const H = full.height;
    const sx = ww / W;
    const sy = wh / H;
    // Full-size pixels whose sample point falls within one pixel of the box.
    const X0 = Math.max(0, Math.floor((bx0 - 1 + 0.5) / sx - 0.5));
    const X1 = Math.min(W - 1, Math.ceil((bx1 + 1 + 0.5) / sx - 0.5));
    const Y0 = Math.max(0, Math.floor((by0 - 1 + 0.5) / sy - 0.5));
    const Y1 = Math.min(H - 1, Math.ceil((by1 + 1 + 0.5) / sy - 0.5));
    const xi = new Int32Array(X1 - X0 + 1);
    const xf = new Float32Array(X1 - X0 + 1);
    for (let X = X0; X <= X1; X++) {
      const fx = Math.min(ww - 1, Math.max(0, (X + 0.5) * sx - 0.5));
      const i = Math.max(0, Math.min(ww - 2, Math.floor(fx)));
      xi[X - X0] = i;
      xf[X - X0] = ww > 1 ? fx - i : 0;
    }
    const dx = ww > 1 ? 1 : 0;
    for (let Y = Y0; Y <= Y1; Y++) {
      const fy = Math.min(wh - 1, Math.max(0, (Y + 0.5) * sy - 0.5));
      const j = Math.max(0, Math.min(wh - 2, Math.floor(fy)));
      const ty = wh > 1 ? fy - j : 0;
      const r0 = j * ww;
      const r1 = wh > 1 ? r0 + ww : r0;
      for (let X = X0, k = 0; X <= X1; X++, k++) {
        const tx = xf[k]!;
        const i00 = r0 + xi[k]!;
        const i01 = i00 + dx;
        const i10 = r1 + xi[k]!;
        const i11 = i10 + dx;
        // Premultiplied bilinear weights: each corner counts with its own alpha.
        const w00 = (1 - tx) * (1 - ty) * al[i00]!;
        const w01 = tx * (1 - ty) * al[i01]!;
        const w10 = (1 - tx) * ty * al[i10]!;
        const w11 = tx * ty * al[i11]!;
        const a = w00 + w01 + w10 + w11;
        if (a <= 0.002) continue;
        const keep = a >= 1 ? 0 : 1 - a;
        const o = (Y * W + X) * 3;
        const q00 = i00 * 4;
        const q01 = i01 * 4;
        const q10 = i10 * 4;
        const q11 = i11 * 4;
        for (let ch = 0; ch < 3; ch++) {
          const v = src[q00 + ch]! * w00 + src[q01 + ch]! * w01 + src[q10 + ch]! * w10 + src[q11 + ch]! * w11;
          out[o + ch] = Math.min(255, out[o + ch]! * keep + v + 0.5);
        }
      }
    }
  }
  const buf = await sharp(out, { raw: { width: full.width, height: full.height, channels: 3 } })
    .jpeg({ quality: 94, chromaSubsampling: '4:4:4' })
    .toBuffer();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
