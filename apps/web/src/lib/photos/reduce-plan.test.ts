import { describe, expect, it } from 'vitest';
import { MAX_NORMALISED_SIDE } from '@aidressup/contract';
import {
  MAX_UPLOAD_SIDE,
  hasTransparency,
  outputFormat,
  planReduction,
  reducedFileName,
  targetSize,
  shouldUseEncoded,
} from './reduce-plan';

describe('target size', () => {
  it('is the server’s normalised size', () => expect(MAX_UPLOAD_SIDE).toBe(MAX_NORMALISED_SIDE));

  it('keeps images that fit and scales the longest side to 2048', () => {
    expect(targetSize(1024, 768)).toEqual({ width: 1024, height: 768 });
    expect(targetSize(4000, 3000)).toEqual({ width: 2048, height: 1536 });
    expect(targetSize(3000, 4000)).toEqual({ width: 1536, height: 2048 });
    expect(targetSize(2048, 2048)).toEqual({ width: 2048, height: 2048 });
    expect(targetSize(10000, 3)).toEqual({ width: 2048, height: 1 });
  });
});

describe('plan', () => {
  it('leaves a JPEG or WebP that already fits untouched', () => {
    expect(planReduction({ type: 'image/jpeg', width: 2048, height: 1536 })).toEqual({ action: 'keep' });
    expect(planReduction({ type: 'image/jpg', width: 800, height: 600 })).toEqual({ action: 'keep' });
    expect(planReduction({ type: 'image/webp', width: 800, height: 600 })).toEqual({ action: 'keep' });
  });
  it('reduces a large JPEG without looking for transparency, always using the result', () => {
    expect(planReduction({ type: 'image/jpeg', width: 4000, height: 3000 })).toEqual({
      action: 'encode',
      width: 2048,
      height: 1536,
      checkAlpha: false,
      onlyIfSmaller: false,
    });
  });
  it('re-encodes PNGs (checking transparency); one that fits only when that is smaller', () => {
    expect(planReduction({ type: 'image/png', width: 800, height: 600 })).toMatchObject({
      action: 'encode',
      checkAlpha: true,
      onlyIfSmaller: true,
    });
    expect(planReduction({ type: 'image/png', width: 3000, height: 3000 })).toMatchObject({
      width: 2048,
      height: 2048,
      checkAlpha: true,
      onlyIfSmaller: false,
    });
    expect(planReduction({ type: 'image/webp', width: 5000, height: 1000 })).toMatchObject({
      width: 2048,
      checkAlpha: true,
    });
  });
  it('keeps the original when the size is unknown', () => {
    expect(planReduction({ type: 'image/png', width: 0, height: 0 })).toEqual({ action: 'keep' });
  });
});

describe('format', () => {
  it('is JPEG at quality 0.9 unless transparent; transparency stays PNG (or WebP from WebP)', () => {
    expect(outputFormat('image/png', false)).toEqual({ type: 'image/jpeg', quality: 0.9 });
    expect(outputFormat('image/png', true)).toEqual({ type: 'image/png', quality: undefined });
    expect(outputFormat('image/webp', true)).toEqual({ type: 'image/webp', quality: 0.9 });
  });
  it('finds any pixel that is not fully opaque', () => {
    expect(hasTransparency(new Uint8ClampedArray([1, 2, 3, 255, 4, 5, 6, 255]))).toBe(false);
    expect(hasTransparency(new Uint8ClampedArray([1, 2, 3, 255, 4, 5, 6, 254]))).toBe(true);
  });
});

describe('which file goes up', () => {
  const big = { action: 'encode', width: 2048, height: 1536, checkAlpha: false, onlyIfSmaller: false } as const;
  const small = { ...big, onlyIfSmaller: true } as const;
  it('uses the reduced file of a large photo, and of a small PNG only when smaller', () => {
    expect(shouldUseEncoded(big, { size: 100 }, { size: 200, type: 'image/jpeg' }, 'image/jpeg')).toBe(true);
    expect(shouldUseEncoded(small, { size: 100 }, { size: 200, type: 'image/jpeg' }, 'image/jpeg')).toBe(false);
    expect(shouldUseEncoded(small, { size: 300 }, { size: 200, type: 'image/jpeg' }, 'image/jpeg')).toBe(true);
  });
  it('refuses an empty or wrongly typed encoding, but accepts PNG for WebP with transparency', () => {
    expect(shouldUseEncoded(big, { size: 100 }, { size: 0, type: 'image/jpeg' }, 'image/jpeg')).toBe(false);
    expect(shouldUseEncoded(big, { size: 100 }, { size: 50, type: 'image/png' }, 'image/jpeg')).toBe(false);
    expect(shouldUseEncoded(big, { size: 100 }, { size: 50, type: 'image/png' }, 'image/webp')).toBe(true);
  });
  it('names the file after the original with the new extension', () => {
    expect(reducedFileName('IMG_0001.HEIC.jpeg', 'image/jpeg')).toBe('IMG_0001.HEIC.jpg');
    expect(reducedFileName('shirt.png', 'image/png')).toBe('shirt.png');
    expect(reducedFileName('', 'image/jpeg')).toBe('photo.jpg');
  });
});

describe('planReduction for a photo over the limit', () => {
  it('re-encodes even a JPEG that already fits 2048 px, and uses it even if not smaller', () => {
    expect(planReduction({ type: 'image/jpeg', width: 2000, height: 1500 })).toEqual({ action: 'keep' });
    expect(planReduction({ type: 'image/jpeg', width: 2000, height: 1500 }, undefined, true)).toEqual({
      action: 'encode',
      width: 2000,
      height: 1500,
      checkAlpha: false,
      onlyIfSmaller: false,
    });
    expect(planReduction({ type: 'image/png', width: 6000, height: 4000 }, undefined, true)).toMatchObject({
      width: 2048,
      height: 1365,
      checkAlpha: true,
    });
  });
});
