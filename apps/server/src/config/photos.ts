/**
 * Kept person photos ("My photos"): the key they are encrypted with at rest, and how long one
 * stays unused. The key is never in the store: PHOTO_KEY, else one derived from the session
 * secret (`storage/sealed-store.ts` derives the AES-256 keys from either).
 */
import type { z } from 'zod';
import { DEFAULT_KEPT_PHOTO_DAYS } from '@aidressup/contract';
import { int, optionalString } from './env.js';

export const PhotosEnv = {
  /**
   * Comma-separated secrets (each at least 32 characters): the first encrypts kept photos, every
   * one decrypts them. To rotate, put a new one first and keep the old one after it until the
   * retention task has re-encrypted every photo under the new one (it logs when none is left).
   * Unset: a key derived from SESSION_SECRET (or the secret generated into DATA_DIR).
   */
  PHOTO_KEY: optionalString
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== ''),
    )
    .refine((keys) => keys.every((k) => k.length >= 32), {
      message: 'PHOTO_KEY must be one or more comma-separated secrets of at least 32 characters each',
    })
    .refine((keys) => new Set(keys).size === keys.length, { message: 'PHOTO_KEY lists the same secret twice' }),
  /** A kept photo not used by any try-on for this many days is deleted. */
  KEPT_PHOTO_DAYS: int(DEFAULT_KEPT_PHOTO_DAYS, 1, 3650),
};

type PhotosEnvValues = z.infer<z.ZodObject<typeof PhotosEnv>>;

export type PhotosConfig = ReturnType<typeof photosConfig>;

export function photosConfig(e: PhotosEnvValues) {
  return {
    /** PHOTO_KEY's secrets, the current one first; empty: the key is derived from the session secret. */
    keys: e.PHOTO_KEY,
    keptPhotoDays: e.KEPT_PHOTO_DAYS,
  };
}

/** Where the key that seals kept photos comes from, and what an operator should know about it. */
export interface PhotoKeyNote {
  source: 'PHOTO_KEY' | 'SESSION_SECRET' | 'data folder';
  /** Null when PHOTO_KEY is set; otherwise the risk, in a line (the console and the start-up log show it). */
  warning: string | null;
}

export function photoKeyNote(config: { photos: PhotosConfig; sessionSecret?: string | undefined }): PhotoKeyNote {
  if (config.photos.keys.length > 0) return { source: 'PHOTO_KEY', warning: null };
  if (config.sessionSecret)
    return {
      source: 'SESSION_SECRET',
      warning:
        'kept photos sealed with a key derived from SESSION_SECRET: set PHOTO_KEY so that the cookie secret alone does not open them',
    };
  return {
    source: 'data folder',
    warning:
      'kept photos sealed with a key stored beside them (derived from DATA_DIR/session-secret): a copy of the data folder opens them; set PHOTO_KEY',
  };
}
