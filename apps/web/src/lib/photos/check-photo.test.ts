import { describe, expect, it, vi } from 'vitest';
import { MAX_UPLOAD_BYTES, MESSAGES } from '@aidressup/contract';
import { checkPhoto, type PhotoCheckDeps } from './check-photo';

const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10];
const jpegFile = (size = 1000, name = 'p.jpg') => {
  const bytes = new Uint8Array(size);
  bytes.set(JPEG_HEAD);
  return new File([bytes], name, { type: 'image/jpeg' });
};
const deps = (size: { width: number; height: number } | null, shrunk: File | null = null): PhotoCheckDeps => ({
  measure: vi.fn(async () => size),
  shrink: vi.fn(async () => shrunk),
});

describe('checkPhoto', () => {
  it('takes JPEG, JPG, PNG and WEBP by type, and refuses other types with the specification’s message', async () => {
    const size = { width: 768, height: 1024 };
    for (const type of ['image/jpeg', 'image/jpg', 'image/png', 'image/webp']) {
      const file = new File([new Uint8Array(JPEG_HEAD)], 'p', { type });
      expect(await checkPhoto(file, 'person', MAX_UPLOAD_BYTES, deps(size)), type).toMatchObject({ ok: true });
    }
    for (const type of ['image/gif', 'application/pdf', '']) {
      const file = new File([new Uint8Array(JPEG_HEAD)], 'p', { type });
      expect(await checkPhoto(file, 'person', MAX_UPLOAD_BYTES, deps(size)), type).toEqual({
        ok: false,
        message: MESSAGES.unsupportedFormat,
      });
    }
  });

  it('refuses a text file, a .gif and a .txt with the specification’s message, before decoding them', async () => {
    const d = deps({ width: 800, height: 1000 });
    const cases = [
      new File(['just some text'], 'notes.txt', { type: 'text/plain' }),
      new File(['GIF89a....'], 'shirt.gif', { type: 'image/gif' }),
      // A type the browser guessed wrong: the extension says it is not a photo we take.
      new File(['just some text'], 'notes.txt', { type: 'image/jpeg' }),
    ];
    for (const file of cases) {
      expect(await checkPhoto(file, 'garment', MAX_UPLOAD_BYTES, d), file.name).toEqual({
        ok: false,
        message: 'Unsupported format. Use JPG, PNG or WEBP.',
      });
    }
    expect(d.measure).not.toHaveBeenCalled();
  });

  it('refuses a PDF renamed .jpg as not a photo, before decoding it', async () => {
    const pdf = new File(['%PDF-1.7\n1 0 obj'], 'holiday.jpg', { type: 'image/jpeg' });
    const d = deps({ width: 800, height: 1000 });
    expect(await checkPhoto(pdf, 'person', MAX_UPLOAD_BYTES, d)).toEqual({ ok: false, message: MESSAGES.notAPhoto });
    expect(d.measure).not.toHaveBeenCalled();
  });

  it('refuses a GIF named .jpg as an unsupported format, and a JPEG that does not decode as not a photo', async () => {
    const gif = new File(['GIF89a....'], 'a.jpg', { type: 'image/jpeg' });
    expect(await checkPhoto(gif, 'person', MAX_UPLOAD_BYTES, deps(null))).toEqual({
      ok: false,
      message: MESSAGES.unsupportedFormat,
    });
    expect(await checkPhoto(jpegFile(), 'person', MAX_UPLOAD_BYTES, deps(null))).toEqual({
      ok: false,
      message: MESSAGES.notAPhoto,
    });
  });

  it('refuses a person photo under 256 px and a garment photo under 160 px on the shorter side', async () => {
    expect(await checkPhoto(jpegFile(), 'person', MAX_UPLOAD_BYTES, deps({ width: 40, height: 53 }))).toEqual({
      ok: false,
      message: MESSAGES.personPhotoTooSmall,
    });
    expect(await checkPhoto(jpegFile(), 'person', MAX_UPLOAD_BYTES, deps({ width: 2000, height: 255 }))).toMatchObject({
      ok: false,
    });
    expect(await checkPhoto(jpegFile(), 'person', MAX_UPLOAD_BYTES, deps({ width: 256, height: 300 }))).toMatchObject({
      ok: true,
      shrunk: false,
    });
    expect(await checkPhoto(jpegFile(), 'garment', MAX_UPLOAD_BYTES, deps({ width: 159, height: 400 }))).toEqual({
      ok: false,
      message: MESSAGES.clothingPhotoTooSmall,
    });
    expect(await checkPhoto(jpegFile(), 'garment', MAX_UPLOAD_BYTES, deps({ width: 160, height: 160 }))).toMatchObject({
      ok: true,
    });
  });

  it('shrinks a photo over the byte or pixel limit instead of refusing it; the limit holds for what is sent', async () => {
    const big = jpegFile(2000);
    const small = jpegFile(500, 'p-small.jpg');
    const onShrinking = vi.fn();
    const d = { ...deps({ width: 4000, height: 3000 }, small), onShrinking };
    expect(await checkPhoto(big, 'person', 1000, d)).toMatchObject({ ok: true, file: small, shrunk: true });
    expect(onShrinking).toHaveBeenCalledOnce();
    // Under the byte limit but over 40 megapixels: shrunk too.
    expect(await checkPhoto(jpegFile(), 'person', 10_000, deps({ width: 8000, height: 6000 }, small))).toMatchObject({
      ok: true,
      file: small,
    });
    // Still too large after shrinking, or the browser cannot shrink it: the spec's message.
    expect(await checkPhoto(big, 'person', 1000, deps({ width: 4000, height: 3000 }, jpegFile(1500)))).toEqual({
      ok: false,
      message: MESSAGES.fileTooLarge,
    });
    expect(await checkPhoto(big, 'person', 1000, deps({ width: 4000, height: 3000 }, null))).toEqual({
      ok: false,
      message: MESSAGES.fileTooLarge,
    });
  });
});
