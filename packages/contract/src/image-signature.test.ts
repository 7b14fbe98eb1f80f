import { describe, expect, it } from 'vitest';
import { detectImageKind, detectImageMime, isOtherImageFormat } from './image-signature.js';

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const WEBP = [...ascii('RIFF'), 0x24, 0x00, 0x00, 0x00, ...ascii('WEBP'), ...ascii('VP8 ')];

describe('detectImageKind', () => {
  it('recognises JPEG by FF D8 FF', () => {
    expect(detectImageKind(bytes(0xff, 0xd8, 0xff, 0xe0, 0x00))).toBe('jpeg');
    expect(detectImageKind(bytes(0xff, 0xd8, 0xff))).toBe('jpeg');
    expect(detectImageKind(bytes(0xff, 0xd8, 0x00))).toBeNull();
  });

  it('recognises PNG only by its full 8-byte signature', () => {
    expect(detectImageKind(bytes(...PNG, 0x00, 0x00, 0x00, 0x0d))).toBe('png');
    expect(detectImageKind(bytes(...PNG))).toBe('png');
    // The first four bytes alone are not enough: a text file starting "\x89PNG" and no more.
    expect(detectImageKind(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull();
    expect(detectImageKind(bytes(0x89, 0x50, 0x4e, 0x47, 0x20, 0x20, 0x20, 0x20))).toBeNull();
    // A signature damaged by a text-mode transfer (CRLF turned into LF).
    expect(detectImageKind(bytes(0x89, 0x50, 0x4e, 0x47, 0x0a, 0x1a, 0x0a, 0x00))).toBeNull();
  });

  it('recognises WEBP by RIFF....WEBP', () => {
    expect(detectImageKind(bytes(...WEBP))).toBe('webp');
    expect(detectImageKind(bytes(...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WAVE')))).toBeNull();
    expect(detectImageKind(bytes(...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEB')))).toBeNull();
  });

  it('refuses other formats and too-short input', () => {
    expect(detectImageKind(bytes(...ascii('GIF89a'), 0, 0))).toBeNull();
    expect(detectImageKind(bytes(...ascii('not an image at all')))).toBeNull();
    expect(detectImageKind(bytes())).toBeNull();
    expect(detectImageKind(bytes(0xff))).toBeNull();
  });

  it('works on any Uint8Array view, not only from offset 0 of its buffer', () => {
    const backing = new Uint8Array([0, 0, ...PNG, 1, 2]);
    expect(detectImageKind(backing.subarray(2))).toBe('png');
    expect(detectImageKind(backing.subarray(1))).toBeNull();
  });
});

describe('detectImageMime', () => {
  it('names the MIME type', () => {
    expect(detectImageMime(bytes(0xff, 0xd8, 0xff, 0xdb))).toBe('image/jpeg');
    expect(detectImageMime(bytes(...PNG))).toBe('image/png');
    expect(detectImageMime(bytes(...WEBP))).toBe('image/webp');
    expect(detectImageMime(bytes(1, 2, 3))).toBeNull();
  });
});

describe('isOtherImageFormat', () => {
  it('knows GIF, BMP, TIFF, HEIC and AVIF by their first bytes', () => {
    expect(isOtherImageFormat(bytes(...ascii('GIF89a'), 1, 0))).toBe(true);
    expect(isOtherImageFormat(bytes(...ascii('BM'), 0, 0))).toBe(true);
    expect(isOtherImageFormat(bytes(0x49, 0x49, 0x2a, 0x00))).toBe(true);
    expect(isOtherImageFormat(bytes(0x4d, 0x4d, 0x00, 0x2a))).toBe(true);
    expect(isOtherImageFormat(bytes(0, 0, 0, 0x18, ...ascii('ftypheic')))).toBe(true);
    expect(isOtherImageFormat(bytes(0, 0, 0, 0x1c, ...ascii('ftypavif')))).toBe(true);
  });

  it('does not take a PDF, a video or text for an image', () => {
    expect(isOtherImageFormat(bytes(...ascii('%PDF-1.7\n')))).toBe(false);
    expect(isOtherImageFormat(bytes(0, 0, 0, 0x18, ...ascii('ftypmp42')))).toBe(false);
    expect(isOtherImageFormat(bytes(...ascii('hello, world')))).toBe(false);
    expect(isOtherImageFormat(bytes())).toBe(false);
  });
});
