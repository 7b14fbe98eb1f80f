import { DEVICE_ID_PATTERN } from '@aidressup/contract';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../../lib/storage';

declare global {
  interface Window {
    /**
     * Test hook: when true before the page loads, fingerprinting fails so the
     * stored/generated fallback device id is used (set with page.addInitScript).
     */
    __AIDRESSUP_TEST_FAIL_FINGERPRINT__?: boolean;
  }
}

/**
 * Device id from FingerprintJS (monitoring off). The session asks for it once fingerprinting is due
 * (fingerprint-due.ts); this module and FingerprintJS are loaded then.
 */
async function fingerprintVisitorId(): Promise<string> {
  if (window.__AIDRESSUP_TEST_FAIL_FINGERPRINT__) throw new Error('Fingerprinting disabled by the test hook');
  const FingerprintJS = await import('@fingerprintjs/fingerprintjs');
  const agent = await FingerprintJS.load({ monitoring: false });
  const { visitorId } = await agent.get();
  return visitorId;
}

function generateDeviceId(): string {
  const random =
    typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID().replace(/-/g, '')
      : Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `fb_${random}`;
}

/** The stored fallback device id, or a newly generated one that is then stored. */
function fallbackDeviceId(): string {
  const stored = readStorage(STORAGE_KEYS.fallbackDeviceId);
  if (stored && DEVICE_ID_PATTERN.test(stored)) return stored;
  const id = generateDeviceId();
  writeStorage(STORAGE_KEYS.fallbackDeviceId, id);
  return id;
}

export async function getDeviceId(fingerprint: () => Promise<string> = fingerprintVisitorId): Promise<string> {
  try {
    const id = await fingerprint();
    if (DEVICE_ID_PATTERN.test(id)) return id;
    throw new Error('Fingerprint gave an unusable id');
  } catch (e) {
    console.warn('Device fingerprint unavailable; using the fallback device id', e);
    return fallbackDeviceId();
  }
}
