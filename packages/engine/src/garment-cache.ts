/**
 * The garment photos a worker thread has analysed (checked, cut out, landmarked and prepared for a
 * category), so that a later try-on of the same photo skips all of it: a shop's product photos
 * that every shopper tries, a garment tried again or on another person photo.
 *
 * Keyed by the photo's content (SHA-256 of its bytes) and the category it was prepared for. Held
 * in this thread's memory only, never written anywhere, bounded by bytes (least recently used out)
 * and dropped `maxAgeMs` after it was analysed however often it is used: a shopper's own garment
 * photo is gone from here before the upload rules delete the upload (30 minutes). A held entry is
 * handed out as a copy, so no try-on can change what the next one is given.
 */
import { createHash } from 'node:crypto';
import type { Category } from '@aidressup/contract';
import type { PreparedGarment } from './prepare-garment.js';

/** Well inside the 30 minutes an upload may be kept (Privacy Policy). */
const GARMENT_CACHE_MAX_AGE_MS = 15 * 60 * 1000;
/** A prepared garment is about 2 MB (512 px: RGBA and a float alpha): about 16 per thread. */
export const GARMENT_CACHE_MAX_BYTES = 32 * 1024 * 1024;

interface Entry {
  garment: PreparedGarment;
  bytes: number;
  at: number;
}

function sizeOf(g: PreparedGarment): number {
  return g.image.data.byteLength + g.alpha.data.byteLength + g.cutout.data.byteLength;
}

export class GarmentCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly maxBytes = GARMENT_CACHE_MAX_BYTES,
    private readonly maxAgeMs = GARMENT_CACHE_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
    /** How often held entries past their age are dropped with no try-on asking (0: never). */
    sweepMs = 60_000,
  ) {
    if (sweepMs > 0 && maxBytes > 0) {
      this.sweeper = setInterval(() => this.sweep(), sweepMs);
      this.sweeper.unref();
    }
  }

  /** The key of a garment photo prepared for `category`. */
  static key(photo: Uint8Array, category: Category): string {
    return `${createHash('sha256').update(photo).digest('hex')}:${category}`;
  }

  /** A copy of the garment held under `key`, or undefined (not held, or past its age). */
  take(key: string): PreparedGarment | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (this.now() - e.at >= this.maxAgeMs) {
      this.drop(key, e);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, e);
    return structuredClone(e.garment);
  }

  /** Holds a copy of `garment` (taken now, before the try-on uses it). */
  put(key: string, garment: PreparedGarment): void {
    const bytes = sizeOf(garment);
    if (bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, { garment: structuredClone(garment), bytes, at: this.now() });
    this.bytes += bytes;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(k, v);
    }
  }

  /** Drops every entry past its age. */
  sweep(): void {
    const now = this.now();
    for (const [k, v] of this.entries) if (now - v.at >= this.maxAgeMs) this.drop(k, v);
  }

  /** What is held: entries and bytes. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private drop(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }
}
