/** Synthetic photos for the hosted-engine tests and benchmark (no real people). */
import sharp from 'sharp';

/**
 * A noisy JPEG of `width`×`height` (noise keeps the file size close to a real photo's).
 * `orientation` writes an EXIF orientation tag; every photo carries EXIF fields that must
 * never reach a provider. `noise` (default 64) sets the grain, and with it the file size.
 */
export async function syntheticPhoto(
  width: number,
  height: number,
  opts: { orientation?: number; quality?: number; seed?: number; noise?: number } = {},
): Promise<Buffer> {
  const channels = 3;
  const raw = Buffer.alloc(width * height * channels);
  let x = (opts.seed ?? 7) >>> 0 || 7;
  for (let i = 0; i < raw.length; i += channels) {
    // xorshift noise over a smooth gradient
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const px = (i / channels) % width;
    const py = Math.floor(i / channels / width);
    const n = (x >>> 0) % (opts.noise ?? 64);
    raw[i] = Math.min(255, Math.round((px / width) * 190) + n);
    raw[i + 1] = Math.min(255, Math.round((py / height) * 190) + n);
    raw[i + 2] = Math.min(255, 90 + n);
  }
  let img = sharp(raw, { raw: { width, height, channels } }).jpeg({ quality: opts.quality ?? 92 });
  img = img.withMetadata({
    ...(opts.orientation ? { orientation: opts.orientation } : {}),
    exif: { IFD0: { Copyright: 'stand-in test photo', Make: 'TestCam' } },
  });
  return img.toBuffer();
}
