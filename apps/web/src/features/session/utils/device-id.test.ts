import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../lib/storage';
import { getDeviceId } from './device-id';

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('device id', () => {
  it('uses the fingerprint visitor id when fingerprinting works', async () => {
    expect(await getDeviceId(async () => '0123456789abcdef0123456789abcdef')).toBe('0123456789abcdef0123456789abcdef');
    expect(localStorage.getItem(STORAGE_KEYS.fallbackDeviceId)).toBeNull();
  });

  it('falls back to a generated id, stores it, and reuses it', async () => {
    const fail = async () => {
      throw new Error('no canvas');
    };
    const first = await getDeviceId(fail);
    expect(first).toMatch(/^fb_[0-9a-f]{32}$/);
    expect(localStorage.getItem(STORAGE_KEYS.fallbackDeviceId)).toBe(first);
    expect(await getDeviceId(fail)).toBe(first);
  });

  it('uses an already stored fallback id', async () => {
    localStorage.setItem(STORAGE_KEYS.fallbackDeviceId, 'fb_stored_device_1');
    expect(await getDeviceId(async () => 'bad id!')).toBe('fb_stored_device_1');
  });
});
