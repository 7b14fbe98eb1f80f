import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@aidressup/contract';
import { validateImageFile } from './validate-image';

describe('upload validation', () => {
  it('accepts JPEG, JPG, PNG and WEBP up to 10 MB', () => {
    for (const type of ['image/jpeg', 'image/jpg', 'image/png', 'image/webp']) {
      expect(validateImageFile({ type, size: 10 * 1024 * 1024 })).toBeNull();
    }
  });
  it('refuses other types with the spec message', () => {
    expect(validateImageFile({ type: 'image/gif', size: 100 })).toBe(MESSAGES.unsupportedFormat);
    expect(validateImageFile({ type: 'application/pdf', size: 100 })).toBe(MESSAGES.unsupportedFormat);
    expect(validateImageFile({ type: '', size: 100 })).toBe(MESSAGES.unsupportedFormat);
  });
  it('refuses files over 10 MB with the spec message', () => {
    expect(validateImageFile({ type: 'image/png', size: 10 * 1024 * 1024 + 1 })).toBe(MESSAGES.fileTooLarge);
  });
  it('applies the configured limit', () => {
    expect(validateImageFile({ type: 'image/png', size: 2000 }, 1000)).toBe(MESSAGES.fileTooLarge);
  });
});
