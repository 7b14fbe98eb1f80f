import { useCallback, useEffect, useRef, useState } from 'react';
import {
  CLIENT_TIMEOUT_MS,
  MESSAGES,
  WEB_MESSAGES,
  type AlternativeEngine,
  type TryOnCategory,
  type TryOnProgressEvent,
  type TryOnResponse,
  type TryOnStage,
  type User,
} from '@aidressup/contract';
import { ApiError, loadResponseSchemas } from '../../../lib/api-client';
import { processImage } from '../api/process-image';
import { rerunTryOn } from '../api/rerun-tryon';
import { leaveLine } from '../api/leave-line';
import { missingPhotosNotice } from '../utils/missing-photos';

type TryOnStatus = 'idle' | 'processing' | 'success' | 'error';

/** The person of a try-on: a photo picked now, or one of the shopper's kept photos (My photos). */
export type PersonSource = File | { keptPhotoId: string };

/** Waiting in line for the engine (nothing charged yet): the place the server gave, and when the page asks again. */
interface LineWait {
  /** 1 is next; null while the place is not known yet. */
  place: number | null;
  /** About how many seconds until the try-on starts. */
  waitSeconds: number | null;
  /** When the page posts again on its own (after the server's Retry-After); null: the server holds the request. */
  retryAt: number | null;
}

/** A busy server's answer says when to come back; an older one without it: this. */
const DEFAULT_RETRY_AFTER_S = 15;

export interface TryOnState {
  status: TryOnStatus;
  message: string | null;
  error: string | null;
  errorCode: string | null;
  resultUrl: string | null;
  startedAt: number | null;
  /** The engine of this try-on (kept with the result, for its label): the one asked, then the one that made it. */
  engine: string | null;
  /** The result was made by another engine than the one asked (it failed; the server moved the try-on on). */
  failedOver?: boolean;
  /** The last stage the server reported (progress stream), null before any. */
  stage: TryOnStage | null;
  /** The server's estimate of the whole try-on, seconds, once it reported one. */
  estimateSeconds: { min: number; max: number } | null;
  /** The finished try-on's id (to report it), when the server gave one. */
  tryonId: string | null;
  /** Set while waiting in line (status processing): the page shows the place and a way to leave. */
  line?: LineWait | null;
  /** The shopper left the line (status idle): nothing was charged. */
  cancelled?: boolean;
  /** A quick preview's photos are kept until then for "Make it photo-real" (ISO); null when they are not. */
  photosKeptUntil?: string | null;
  /**
   * A refusal the server says another engine can take (GARMENT_WORN: a hosted engine that dresses
   * from a photo of the garment being worn): the page offers the same try-on on it.
   */
  alternativeEngine?: AlternativeEngine | null;
}

export interface TryOnDeps {
  user: User | null;
  engine: string | undefined;
  /** Applies the counter change to the session user. */
  updateUser: (change: (u: User) => User) => void;
  setUser: (u: User) => void;
  refreshUser: () => Promise<User | null>;
  onNoCredits: () => void;
  timeoutMs?: number;
  process?: typeof processImage;
  rerun?: typeof rerunTryOn;
  /** Gives a ticket's place in line up (the shopper left while away). */
  leaveLine?: typeof leaveLine;
  /** The file to upload for a picked photo (reduced in the browser); the photo itself when absent. */
  prepare?: (file: File) => Promise<File>;
  /** Follows the try-on's progress; returns a function that stops listening. None when absent. */
  openProgress?: (progressId: string, onEvent: (event: TryOnProgressEvent) => void) => () => void;
  makeProgressId?: () => string;
}

/**
 * Local counter update after a successful try-on: a free trial used raises free_trials_used by
 * one, otherwise credits become creditsRemaining. A whole outfit (two try-ons) may use a free
 * trial and a credit: then both change.
 */
export function applyTryOnResult(
  user: User,
  res: Pick<TryOnResponse, 'usedFreeTrial' | 'creditsRemaining' | 'freeTrialsUsed' | 'tryOnsUsed'>,
): User {
  const trials = res.freeTrialsUsed ?? (res.usedFreeTrial ? 1 : 0);
  const tryOns = res.tryOnsUsed ?? 1;
  const changed = trials > 0 ? { ...user, free_trials_used: user.free_trials_used + trials } : user;
  return tryOns > trials ? { ...changed, credits: res.creditsRemaining } : changed;
}

const idle: TryOnState = {
  status: 'idle',
  message: null,
  error: null,
  errorCode: null,
  resultUrl: null,
  startedAt: null,
  engine: null,
  stage: null,
  estimateSeconds: null,
  tryonId: null,
  line: null,
  photosKeptUntil: null,
  alternativeEngine: null,
};

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function useTryOn(deps: TryOnDeps) {
  const [state, setState] = useState<TryOnState>(idle);
  /**
   * Why Try with AI did nothing (a photo missing, the user still loading): the specification's
   * words, shown by the page next to the button (no native alert box).
   */
  const [notice, setNotice] = useState<string | null>(null);
  const depsRef = useRef(deps);
  depsRef.current = deps;
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => () => inFlight.current?.abort(), []);

  /**
   * One try-on request from press to answer: the states, progress, the wait in line (each
   * ENGINE_BUSY answer gives the place and when to ask again; the page waits that long and posts
   * again on its own with the ticket that keeps the place), timeout, counters and errors.
   */
  const execute = useCallback(
    async (
      engine: string | null,
      send: (
        userId: string,
        signal: AbortSignal,
        progressId: string | undefined,
        lineTicket: string | undefined,
      ) => Promise<TryOnResponse>,
      timeoutMs?: number,
    ) => {
      const d = depsRef.current;
      if (!d.user || inFlight.current) return;
      setNotice(null);
      const ctrl = new AbortController();
      inFlight.current = ctrl;
      let timedOut = false;
      let cancelled = false;
      ctrl.signal.addEventListener('abort', () => {
        cancelled = !timedOut;
      });
      const userId = d.user.id;
      setState({ ...idle, status: 'processing', message: MESSAGES.initializing, startedAt: Date.now(), engine });
      let stopProgress: () => void = () => undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      /** Listens to one post's progress (a new id per post); the id, when progress is available. */
      const listen = (): string | undefined => {
        stopProgress();
        stopProgress = () => undefined;
        if (!d.openProgress) return undefined;
        try {
          const progressId = (d.makeProgressId ?? (() => crypto.randomUUID()))();
          stopProgress = d.openProgress(progressId, (event) => {
            if (inFlight.current !== ctrl) return;
            setState((s) => {
              if (s.status !== 'processing') return s;
              // Waiting in line (a place; nothing charged yet), or the try-on has started.
              let line: LineWait | null = null;
              if (event.stage === 'failed') line = s.line ?? null;
              else if (event.stage === 'queued' && event.place !== undefined)
                line = { place: event.place, waitSeconds: event.waitSeconds ?? null, retryAt: null };
              return {
                ...s,
                stage: event.stage === 'failed' ? s.stage : event.stage,
                estimateSeconds: event.estimateSeconds,
                line,
              };
            });
          });
          return progressId;
        } catch (e) {
          console.warn('Try-on progress unavailable', e);
          return undefined;
        }
      };
      // Progress is optional: without events the page shows the processing state until the answer.
      let progressId = listen();
      /** The ticket of the last busy answer: it keeps the place while the page waits to post again. */
      let lineTicket: string | undefined;
      try {
        let res: TryOnResponse | undefined;
        while (!res) {
          timer = setTimeout(
            () => {
              timedOut = true;
              ctrl.abort();
            },
            timeoutMs ?? d.timeoutMs ?? CLIENT_TIMEOUT_MS,
          );
          try {
            res = await send(userId, ctrl.signal, progressId, lineTicket);
          } catch (e) {
            const busy =
              e instanceof ApiError && e.code === 'ENGINE_BUSY'
                ? (await loadResponseSchemas()).EngineBusyResponseSchema.safeParse(e.body)
                : undefined;
            if (!busy?.success) throw e;
            const retryAfter = busy.data.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_S;
            lineTicket = busy.data.ticket;
            setState((s) => ({
              ...s,
              stage: null,
              line: {
                place: busy.data.place ?? null,
                waitSeconds: busy.data.waitSeconds ?? null,
                retryAt: Date.now() + retryAfter * 1000,
              },
            }));
            clearTimeout(timer);
            stopProgress();
            stopProgress = () => undefined;
            await pause(retryAfter * 1000, ctrl.signal);
            progressId = listen();
          } finally {
            clearTimeout(timer);
          }
        }
        d.updateUser((u) => applyTryOnResult(u, res));
        void d.refreshUser();
        setState({
          ...idle,
          status: 'success',
          message: MESSAGES.completed,
          resultUrl: res.imageUrl,
          // The engine that made it: the one asked, or the next one when it failed (failover).
          engine: res.engine ?? engine,
          failedOver: res.engine !== undefined && engine !== null && res.engine !== engine,
          tryonId: res.tryonId ?? null,
          photosKeptUntil: res.photosKeptUntil ?? null,
        });
      } catch (e) {
        if (cancelled) {
          // The shopper left the line: nothing was charged. A place kept by a ticket is given up
          // too (a post in flight gives its own up as its connection closes).
          if (lineTicket) {
            void (d.leaveLine ?? leaveLine)({ ticket: lineTicket, api: engine ?? undefined }).catch((err: unknown) =>
              console.warn('Could not give the place in line up', err),
            );
          }
          setState({ ...idle, cancelled: true });
          return;
        }
        if (e instanceof ApiError && e.code === 'NO_CREDITS') {
          const parsed = (await loadResponseSchemas()).NoCreditsResponseSchema.safeParse(e.body);
          if (parsed.success) d.setUser(parsed.data.user);
          setState({ ...idle, status: 'error', error: MESSAGES.noCredits, errorCode: 'NO_CREDITS', engine });
          d.onNoCredits();
          return;
        }
        let message: string;
        if (timedOut) message = WEB_MESSAGES.requestTimedOut;
        else if (e instanceof ApiError) message = e.message;
        else if (e instanceof Error && e.message) message = e.message;
        else message = MESSAGES.unknownError;
        console.warn('Try-on failed', e);
        const worn =
          e instanceof ApiError && e.code === 'GARMENT_WORN'
            ? (await loadResponseSchemas()).GarmentWornResponseSchema.safeParse(e.body)
            : null;
        setState({
          ...idle,
          status: 'error',
          error: message,
          errorCode: e instanceof ApiError ? (e.code ?? null) : null,
          engine,
          alternativeEngine: worn?.success ? (worn.data.alternativeEngine ?? null) : null,
        });
      } finally {
        stopProgress();
        clearTimeout(timer);
        inFlight.current = null;
      }
    },
    [],
  );

  /** The photos and category of the last try-on sent, for the same try-on on another engine. */
  const lastRun = useRef<{
    person: PersonSource;
    clothing: File;
    category: TryOnCategory;
    lower: File | undefined;
  } | null>(null);

  const run = useCallback(
    async (
      person: PersonSource | null,
      clothing: File | null,
      category: TryOnCategory,
      lowerClothing?: File | null,
      /** Another engine than the one chosen (the same try-on, offered after a refusal), and its timeout. */
      engineOverride?: string,
      timeoutMs?: number,
    ) => {
      const d = depsRef.current;
      if (!person || !clothing) {
        setNotice(missingPhotosNotice(!!person, !!clothing));
        return;
      }
      if (!d.user) {
        setNotice(MESSAGES.userLoading);
        return;
      }
      // A bottom goes with Upper Body only (a whole outfit).
      const lower = category === 'upper_body' ? (lowerClothing ?? undefined) : undefined;
      const api = engineOverride ?? d.engine;
      if (!inFlight.current) lastRun.current = { person, clothing, category, lower };
      // A kept photo is on the server already: only its id is sent.
      const photo = person instanceof File ? person : undefined;
      const keptPhotoId = person instanceof File ? undefined : person.keptPhotoId;
      // Prepared once, posted again as often as the line asks.
      let uploads: Promise<[File | undefined, File, File | undefined]> | undefined;
      await execute(
        api ?? null,
        async (userId, signal, progressId, lineTicket) => {
          const [personUpload, clothingUpload, lowerUpload] = d.prepare
            ? await (uploads ??= Promise.all([
                photo ? d.prepare(photo) : undefined,
                d.prepare(clothing),
                lower ? d.prepare(lower) : undefined,
              ]))
            : [photo, clothing, lower];
          return (d.process ?? processImage)({
            person: personUpload,
            personPhotoId: keptPhotoId,
            clothing: clothingUpload,
            ...(lowerUpload ? { lowerClothing: lowerUpload } : {}),
            category,
            userId,
            api,
            signal,
            ...(progressId ? { progressId } : {}),
            ...(lineTicket ? { lineTicket } : {}),
          });
        },
        timeoutMs,
      );
    },
    [execute],
  );

  /**
   * "Make it photo-real": the preview `tryonId` again on the hosted engine `api`, from the photos
   * the server kept for it; the same states as a try-on, with its own progress and the same wait
   * in line (the ticket of a busy answer goes back with the next post; the shopper may leave).
   */
  const rerun = useCallback(
    async (tryonId: string, api: string, timeoutMs?: number) => {
      const d = depsRef.current;
      if (!d.user) return;
      await execute(
        api,
        (_userId, signal, progressId, lineTicket) =>
          (d.rerun ?? rerunTryOn)({
            tryonId,
            api,
            signal,
            ...(progressId ? { progressId } : {}),
            ...(lineTicket ? { lineTicket } : {}),
          }),
        timeoutMs,
      );
    },
    [execute],
  );

  /**
   * The last try-on again, the same photos and category, on the engine `api` (the one a refusal
   * offered: GARMENT_WORN's hosted engine). A new try-on, charged as one.
   */
  const retryOn = useCallback(
    async (api: string, timeoutMs?: number) => {
      const last = lastRun.current;
      if (!last) return;
      await run(last.person, last.clothing, last.category, last.lower ?? null, api, timeoutMs);
    },
    [run],
  );

  /** Leaves the line: stops waiting (and asking again); nothing was charged. */
  const cancel = useCallback(() => {
    inFlight.current?.abort();
  }, []);

  /** Back to idle (for example once credits were bought after a NO_CREDITS refusal). */
  const reset = useCallback(() => setState((s) => (s.status === 'processing' ? s : idle)), []);

  /** Clears the notice (the photos it asked for are there, the user has loaded). */
  const clearNotice = useCallback(() => setNotice(null), []);

  return { state, run, rerun, retryOn, reset, cancel, notice, clearNotice };
}
