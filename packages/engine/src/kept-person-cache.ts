/**
 * The kept person photos a worker thread holds, decoded and analysed, so that the garments of one
 * press (and later presses) on the same kept photo skip its decoding as well as its analysis.
 * Bounded by entries and bytes, least recently used first out; a miss costs only the decoding
 * (the analysis comes with the task).
 */
import type { PersonAnalysis } from './person.js';
import type { PersonPhoto } from './photo-io.js';

export interface KeptPerson {
  photo: PersonPhoto;
  analysis: PersonAnalysis;
}

function sizeOf(e: KeptPerson): number {
  return e.photo.full.data.byteLength + e.photo.work.data.byteLength + e.analysis.mask.data.byteLength;
}

export class KeptPersonCache {
  private readonly entries = new Map<string, KeptPerson>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 6,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  /**
   * The kept person under `key`, its full-size pixels copied (the output is drawn over them);
   * undefined when not held.
   */
  take(key: string): KeptPerson | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, e);
    const full = e.photo.full;
    return { photo: { work: e.photo.work, full: { ...full, data: Buffer.from(full.data) } }, analysis: e.analysis };
  }

  /** Holds a kept person (its pixels copied now, before the try-on draws over them). */
  put(key: string, e: KeptPerson): void {
    const held: KeptPerson = {
      photo: { work: e.photo.work, full: { ...e.photo.full, data: Buffer.from(e.photo.full.data) } },
      analysis: e.analysis,
    };
    const size = sizeOf(held);
    if (size > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= sizeOf(old);
    }
    this.entries.set(key, held);
    this.bytes += size;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= sizeOf(v);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
