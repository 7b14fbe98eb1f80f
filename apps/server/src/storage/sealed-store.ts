/**
 * Objects encrypted at rest with a key the store never holds: kept person photos ("My photos").
 * AES-256-GCM, a random 96-bit nonce per object, the object's storage key as associated data (an
 * object copied under another key does not open). Each object starts with the id of the key that
 * sealed it, so that several keys can open objects while the first seals new ones (rotation).
 *
 * The keys: each PHOTO_KEY secret, or, without PHOTO_KEY, the session secret, through HKDF-SHA256
 * with a label of their own (the session secret's derived key is used for nothing else).
 *
 * Layout: "AIDS1" (5 bytes) · key id (8) · nonce (12) · tag (16) · ciphertext.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { PhotosConfig } from '../config/photos.js';
import type { Storage } from './storage.js';

const MAGIC = Buffer.from('AIDS1');
const KEY_ID_BYTES = 8;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEAD = MAGIC.length + KEY_ID_BYTES + NONCE_BYTES + TAG_BYTES;

interface SealingKey {
  id: string;
  key: Buffer;
}

/** The AES key for a secret: HKDF-SHA256, salt and label fixed for kept photos. */
function deriveKey(secret: string, label: string): SealingKey {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'aidressup kept photos', label, 32));
  // The id names the key without giving anything of it away.
  const id = createHmac('sha256', key).update('key id').digest().subarray(0, KEY_ID_BYTES).toString('hex');
  return { id, key };
}

export interface PhotoKeyRing {
  /** Seals every new object. */
  current: SealingKey;
  /** Every key that may open an object, by id (the current one included). */
  byId: Map<string, SealingKey>;
  /** Where the current key comes from (for the log at start-up): never the key itself. */
  source: 'PHOTO_KEY' | 'session secret';
}

/** PHOTO_KEY's secrets (the first seals), or the key derived from the session secret. */
export function photoKeyRing(config: Pick<PhotosConfig, 'keys'>, sessionSecret: string): PhotoKeyRing {
  const keys =
    config.keys.length > 0
      ? config.keys.map((k) => deriveKey(k, 'PHOTO_KEY'))
      : [deriveKey(sessionSecret, 'from the session secret')];
  return {
    current: keys[0]!,
    byId: new Map(keys.map((k) => [k.id, k])),
    source: config.keys.length > 0 ? 'PHOTO_KEY' : 'session secret',
  };
}

interface OpenedObject {
  body: Buffer;
  /** The key that sealed it: not the current one means it is due to be sealed again (rotation). */
  keyId: string;
}

/** A store of sealed objects over any Storage (local disk or S3). */
export interface SealedStore {
  readonly currentKeyId: string;
  /** Seals and stores `body` under `key`. */
  put(key: string, body: Uint8Array): Promise<void>;
  /** null when there is no such object, or when no key of the ring opens it (a lost key, a damaged object). */
  get(key: string): Promise<OpenedObject | null>;
  delete(key: string): Promise<void>;
}

function seal(ring: PhotoKeyRing, storageKey: string, body: Uint8Array): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, nonce);
  cipher.setAAD(Buffer.from(storageKey, 'utf8'));
  const encrypted = Buffer.concat([cipher.update(body), cipher.final()]);
  return Buffer.concat([MAGIC, Buffer.from(ring.current.id, 'hex'), nonce, cipher.getAuthTag(), encrypted]);
}

function unseal(ring: PhotoKeyRing, storageKey: string, sealed: Uint8Array): OpenedObject | null {
  const data = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (data.length < HEAD || !data.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  let at = MAGIC.length;
  const keyId = data.subarray(at, (at += KEY_ID_BYTES)).toString('hex');
  const key = ring.byId.get(keyId);
  if (!key) return null;
  const nonce = data.subarray(at, (at += NONCE_BYTES));
  const tag = data.subarray(at, (at += TAG_BYTES));
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, nonce);
    decipher.setAAD(Buffer.from(storageKey, 'utf8'));
    decipher.setAuthTag(tag);
    return { body: Buffer.concat([decipher.update(data.subarray(at)), decipher.final()]), keyId };
  } catch {
    return null;
  }
}

export function createSealedStore(storage: Storage, ring: PhotoKeyRing): SealedStore {
  return {
    currentKeyId: ring.current.id,
    async put(key, body) {
      await storage.put(key, seal(ring, key, body), 'application/octet-stream');
    },
    async get(key) {
      const object = await storage.get(key);
      return object ? unseal(ring, key, object.body) : null;
    },
    delete: (key) => storage.delete(key),
  };
}
