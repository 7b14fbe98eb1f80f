/**
 * Try-on progress, server side: the stages one try-on goes through, kept per `progressId` and
 * handed to the SSE subscribers of this process.
 *
 * Rules:
 * - A progressId belongs to the first user who reports progress for it (the user who posted the
 *   try-on). Events for it from anyone else are dropped, and no other user's subscription ever
 *   receives its events.
 * - Stages only move forward (queued, reading, fitting, finishing, then done or failed); a repeated
 *   or older stage (the same event relayed twice, or arriving late from another process) is dropped.
 *   One exception: while the try-on waits in line, `queued` events carry its place, and a new
 *   place (or expected wait) is news; a `queued` without a place ends the line (charged, starting).
 *   Nothing follows done or failed: one progressId is one try-on.
 * - The latest event of each id is kept for `ttlMs` (default 5 minutes) after it arrived, for late
 *   subscribers; at most `maxEntries` ids are kept (the oldest go first).
 */
import { z } from 'zod';
import {
  ENGINE_ESTIMATE_SECONDS,
  ProgressIdSchema,
  TRYON_STAGES,
  TryOnProgressEventSchema,
  type TryOnProgressEvent,
  type TryOnStage,
} from '@aidressup/contract';
import type { Config } from '../config.js';
import { engineEstimateOverride } from '../engines/deadlines.js';

/** One progress event with whom it belongs to: what processes pass to each other. */
export interface ProgressMessage {
  progressId: string;
  userId: string;
  event: TryOnProgressEvent;
}

export const ProgressMessageSchema = z.object({
  progressId: ProgressIdSchema,
  userId: z.string().min(1).max(64),
  event: TryOnProgressEventSchema,
});

export type EngineKind = 'local' | 'hosted';

/** Hosted engines' ids (the built-in engine, and test doubles, count as local). */
const HOSTED_ENGINE_IDS: ReadonlySet<string> = new Set([
  'nano-banana',
  'fashn',
  'fal',
  'vertex-tryon',
  'replicate',
  'cog',
]);

export function engineKind(engineId: string): EngineKind {
  return HOSTED_ENGINE_IDS.has(engineId) ? 'hosted' : 'local';
}

/**
 * The engine's own estimate of a whole try-on, as the page shows it; a whole outfit dresses two
 * garments, so twice as long. With the configuration, an engine's own figure where it has one
 * (FASHN's Try-On Max: 50–120 s) instead of its kind's.
 */
export function engineEstimate(
  engineId: string,
  outfit = false,
  config?: Config,
): { kind: EngineKind; estimateSeconds: { min: number; max: number } } {
  const kind = engineKind(engineId);
  const { min, max } = (config && engineEstimateOverride(config, engineId)) ?? ENGINE_ESTIMATE_SECONDS[kind];
  const times = outfit ? 2 : 1;
  return { kind, estimateSeconds: { min: min * times, max: max * times } };
}

export const isTerminal = (stage: TryOnStage): boolean => stage === 'done' || stage === 'failed';
const order = (stage: TryOnStage): number => TRYON_STAGES.indexOf(stage);

/** Whether `next` is news after `last`: a later stage, or a new place in line. */
function movesOn(last: TryOnProgressEvent, next: TryOnProgressEvent): boolean {
  if (order(next.stage) > order(last.stage)) return true;
  if (next.stage !== 'queued' || last.stage !== 'queued' || last.place === undefined) return false;
  return next.place !== last.place || next.waitSeconds !== last.waitSeconds;
}

export type ProgressListener = (event: TryOnProgressEvent) => void;

interface Entry {
  owner: string;
  last: TryOnProgressEvent | undefined;
  expiresAt: number;
}

interface Subscriber {
  userId: string;
  listener: ProgressListener;
}

export interface ProgressHubOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

export type Subscription = { ok: false } | { ok: true; last: TryOnProgressEvent | undefined; unsubscribe(): void };

export class ProgressHub {
  private readonly entries = new Map<string, Entry>();
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: ProgressHubOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Ids kept at the moment (tests, metrics). */
  get size(): number {
    return this.entries.size;
  }

  /** The entry of a live id (expired ones are dropped here). */
  private entry(progressId: string): Entry | undefined {
    const e = this.entries.get(progressId);
    if (e && e.expiresAt <= this.now()) {
      this.entries.delete(progressId);
      return undefined;
    }
    return e;
  }

  private evict(): void {
    const now = this.now();
    for (const [id, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && e.expiresAt > now) break;
      this.entries.delete(id);
    }
  }

  /**
   * Binds the id to the user without an event (the try-on was posted). False when it belongs to
   * someone else already.
   */
  claim(progressId: string, userId: string): boolean {
    const e = this.entry(progressId);
    if (e) return e.owner === userId;
    this.entries.set(progressId, { owner: userId, last: undefined, expiresAt: this.now() + this.ttlMs });
    this.evict();
    return true;
  }

  /** Records the event and hands it to the owner's subscribers. False when it was dropped. */
  publish(message: ProgressMessage): boolean {
    const { progressId, userId, event } = message;
    let e = this.entry(progressId);
    if (e && e.owner !== userId) return false;
    if (e?.last && (isTerminal(e.last.stage) || !movesOn(e.last, event))) return false;
    if (!e) e = { owner: userId, last: undefined, expiresAt: 0 };
    e.last = event;
    e.expiresAt = this.now() + this.ttlMs;
    // Re-inserted: the map stays in order of the latest update, so eviction takes the stalest.
    this.entries.delete(progressId);
    this.entries.set(progressId, e);
    this.evict();
    for (const s of this.subscribers.get(progressId) ?? []) {
      if (s.userId === userId) s.listener(event);
    }
    return true;
  }

  /**
   * Subscribes a user to an id. `ok: false` when the id belongs to someone else; otherwise the
   * latest event, if any, and later ones through `listener`. An id nobody has claimed yet is
   * waited for: the events come only if the same user claims it.
   */
  subscribe(progressId: string, userId: string, listener: ProgressListener): Subscription {
    const e = this.entry(progressId);
    if (e && e.owner !== userId) return { ok: false };
    const sub: Subscriber = { userId, listener };
    let set = this.subscribers.get(progressId);
    if (!set) this.subscribers.set(progressId, (set = new Set()));
    set.add(sub);
    return {
      ok: true,
      last: e?.last,
      unsubscribe: () => {
        set.delete(sub);
        if (set.size === 0 && this.subscribers.get(progressId) === set) this.subscribers.delete(progressId);
      },
    };
  }
}

/** Reports one try-on's stages; never throws, never waits. */
export interface ProgressReporter {
  readonly progressId: string;
  readonly userId: string;
  /** When the server accepted the try-on (epoch ms). */
  readonly acceptedAt: number;
  readonly estimateSeconds: { min: number; max: number };
  report(stage: TryOnStage): void;
  /** Waiting in line, nothing charged yet: a `queued` event with the place and expected wait. */
  reportPlace(place: { place: number; waitSeconds: number }): void;
  /**
   * Also sends the later reports through `send` (queue mode: the queued job's progress, which
   * every API process relays to its own subscribers). Failures of `send` are ignored.
   */
  relayThrough(send: ((message: ProgressMessage) => Promise<unknown>) | undefined): void;
}

export function progressMessage(
  t: { progressId: string; userId: string; acceptedAt: number; estimateSeconds: { min: number; max: number } },
  stage: TryOnStage,
  now = Date.now(),
  place?: { place: number; waitSeconds: number },
): ProgressMessage {
  return {
    progressId: t.progressId,
    userId: t.userId,
    event: {
      stage,
      estimateSeconds: { ...t.estimateSeconds },
      elapsedMs: Math.max(0, Math.round(now - t.acceptedAt)),
      ...(place ? { place: place.place, waitSeconds: place.waitSeconds } : {}),
    },
  };
}

/** A reporter publishing to this process's hub (and, once told, through a relay as well). */
export function createProgressReporter(
  hub: Pick<ProgressHub, 'publish'>,
  t: {
    progressId: string;
    userId: string;
    engineId: string;
    acceptedAt?: number;
    outfit?: boolean;
    config?: Config;
    /** Where line places also go (several API processes: the one holding the stream may be another). */
    relay?: ((message: ProgressMessage) => Promise<unknown>) | undefined;
  },
): ProgressReporter {
  let relay: ((message: ProgressMessage) => Promise<unknown>) | undefined;
  const send = (message: ProgressMessage, through: typeof relay) => {
    hub.publish(message);
    if (!through) return;
    try {
      through(message).catch(() => undefined);
    } catch {
      // progress is best effort
    }
  };
  const reporter: ProgressReporter = {
    progressId: t.progressId,
    userId: t.userId,
    acceptedAt: t.acceptedAt ?? Date.now(),
    estimateSeconds: engineEstimate(t.engineId, t.outfit, t.config).estimateSeconds,
    report(stage) {
      send(progressMessage(reporter, stage), relay ?? t.relay);
    },
    reportPlace(place) {
      send(progressMessage(reporter, 'queued', Date.now(), place), t.relay);
    },
    relayThrough(send) {
      relay = send;
    },
  };
  return reporter;
}
