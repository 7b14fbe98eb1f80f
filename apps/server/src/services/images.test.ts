import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MAX_UPLOAD_BYTES, MESSAGES } from '@aidressup/contract';
import { AppError } from '../errors.js';
import { cleanEngineOutput, detectImageKind, validateAndNormalise, type Upload } from './images.js';
import { gif, jpeg, png, pngHeaderOnly, rotatedJpegWithExif, truncatedJpeg } from '../test/images.js';

async function refusal(bytes: Buffer | Upload): Promise<AppError> {
  try {
    await validateAndNormalise(bytes, 'userImage');
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected the image to be refused');
}

describe('upload validation', () => {
  it('recognises JPEG, PNG and WEBP by their bytes only', async () => {
    expect(detectImageKind(await jpeg())).toBe('jpeg');
    expect(detectImageKind(await png())).toBe('png');
    expect(
      detectImageKind(
        await sharp(await png())
          .webp()
          .toBuffer(),
      ),
    ).toBe('webp');
    expect(detectImageKind(await gif())).toBeNull();
    expect(detectImageKind(Buffer.from('RIFF0000WAVEfmt '))).toBeNull();
    expect(detectImageKind(Buffer.alloc(0))).toBeNull();
  });

  it('refuses a text file named .jpg as not a photo at all, and one that says it is text as an unsupported format', async () => {
    const data = Buffer.from('This is a text file pretending to be a photo.jpg\n');
    const err = await refusal({ data, declared: { type: 'image/jpeg', name: 'photo.jpg' } });
    expect([err.code, err.message, err.statusCode]).toEqual(['UNSUPPORTED_FORMAT', MESSAGES.notAPhoto, 415]);
    expect(err.extra).toEqual({ field: 'userImage' });
    expect(MESSAGES.notAPhoto).toBe('This file is not a photo we can read. Use JPG, PNG or WEBP.');
    for (const declared of [{ type: 'text/plain', name: 'notes.txt' }, { type: 'image/jpeg', name: 'notes.txt' }, {}]) {
      const text = await refusal({ data, declared });
      expect([text.code, text.message], JSON.stringify(declared)).toEqual([
        'UNSUPPORTED_FORMAT',
        MESSAGES.unsupportedFormat,
      ]);
    }
  });

  it('refuses a GIF as an unsupported format', async () => {
    const err = await refusal(await gif());
    expect([err.code, err.message]).toEqual(['UNSUPPORTED_FORMAT', 'Unsupported format. Use JPG, PNG or WEBP.']);
  });

  it('refuses a truncated JPEG as unreadable', async () => {
    const err = await refusal(await truncatedJpeg());
    expect([err.code, err.message, err.statusCode]).toEqual(['IMAGE_UNREADABLE', MESSAGES.imageUnreadable, 422]);
  });

  it('refuses a file of 10 MB + 1 byte as too large', async () => {
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    (await jpeg()).copy(big);
    const err = await refusal(big);
    expect([err.code, err.message, err.statusCode]).toEqual([
      'FILE_TOO_LARGE',
      'File too large. Maximum 10MB allowed.',
      413,
    ]);
  });

  it('refuses a 30000×30000 PNG from its header, without decoding it', async () => {
    const started = performance.now();
    const err = await refusal(pngHeaderOnly(30000, 30000));
    expect([err.code, err.message]).toEqual(['IMAGE_TOO_MANY_PIXELS', MESSAGES.imageTooManyPixels]);
    // Decoding 900 megapixels would take far longer and gigabytes of memory.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('applies the EXIF orientation and strips all metadata', async () => {
    const out = await validateAndNormalise(await rotatedJpegWithExif(400, 200), 'userImage');
    expect([out.width, out.height, out.mimeType]).toEqual([200, 400, 'image/jpeg']);
    const meta = await sharp(out.data).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([200, 400]);
  });

  it('reduces the longest side to 2048 and keeps transparency lossless', async () => {
    const wide = await validateAndNormalise(await png(3000, 1000, '#336699'), 'userImage');
    expect([wide.width, wide.height]).toEqual([2048, 683]);
    // A large JPEG is reduced to a third (decoded at half scale), keeping ≥ 1000 pixels.
    const phone = await validateAndNormalise(await jpeg(4032, 3024), 'userImage');
    expect([phone.width, phone.height]).toEqual([1344, 1008]);
    const huge = await validateAndNormalise(await jpeg(6000, 1000), 'userImage');
    expect([huge.width, huge.height]).toEqual([2000, 333]);
    const modest = await validateAndNormalise(await jpeg(2500, 1000), 'userImage');
    expect([modest.width, modest.height]).toEqual([2048, 819]);
    const clear = await validateAndNormalise(await png(500, 700, '#ffffff00'), 'clothingImage');
    expect([clear.mimeType, clear.width, clear.height]).toEqual(['image/png', 500, 700]);
    const small = await validateAndNormalise(await jpeg(300, 400), 'userImage');
    expect([small.width, small.height]).toEqual([300, 400]);
  });
});

describe('engine output: the free-trial size limit', () => {
  it('reduces an output above maxSide to it on the longest side, keeping its type and proportions', async () => {
    const out = await cleanEngineOutput(await jpeg(1500, 2000), { maxSide: 1024 });
    const meta = await sharp(out!.data).metadata();
    expect([out!.mimeType, meta.format, meta.width, meta.height]).toEqual(['image/jpeg', 'jpeg', 768, 1024]);
    const wide = await cleanEngineOutput(await png(2048, 1024, '#00000000'), { maxSide: 1024 });
    const wideMeta = await sharp(wide!.data).metadata();
    expect([wide!.mimeType, wideMeta.width, wideMeta.height, wideMeta.hasAlpha]).toEqual([
      'image/png',
      1024,
      512,
      true,
    ]);
  });

  it('leaves an output within maxSide, or without maxSide, byte for byte', async () => {
    const small = await jpeg(768, 1024);
    expect((await cleanEngineOutput(small, { maxSide: 1024 }))!.data.equals(small)).toBe(true);
    const large = await jpeg(1500, 2000);
    expect((await cleanEngineOutput(large))!.data.equals(large)).toBe(true);
  });
});
