import { useCallback, useEffect, useRef, useState } from 'react';
import {
  CLIENT_TIMEOUT_MS,
  MESSAGES,
  NoCreditsResponseSchema,
  WEB_MESSAGES,
  type TryOnCategory,
  type TryOnProgressEvent,
  type TryOnResponse,
  type TryOnStage,
  type User,
} from '@aidressup/contract';
import { useLocalizeMessage } from '../../../i18n/localize-message';
import { ApiError } from '../../../lib/api-client';
import { processImage } from '../api/process-image';
import { rerunTryOn } from '../api/rerun-tryon';

export type TryOnStatus = 'idle' | 'processing' | 'success' | 'error';

export interface TryOnState {
  status: TryOnStatus;
  message: string | null;
  error: string | null;
  errorCode: string | null;
  resultUrl: string | null;
  startedAt: number | null;
  /** The engine asked for this try-on (kept with the result, for its label). */
  engine: string | null;
  /** The last stage the server reported (progress stream), null before any. */
  stage: TryOnStage | null;
  /** The server's estimate of the whole try-on, seconds, once it reported one. */
  estimateSeconds: { min: number; max: number } | null;
  /** The finished try-on's id (to report it), when the server gave one. */
  tryonId: string | null;
  /** A quick preview's photos are kept until then for "Make it photo-real" (ISO); null when they are not. */
  photosKeptUntil?: string | null;
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
  photosKeptUntil: null,
};

export function useTryOn(deps: TryOnDeps) {
  const [state, setState] = useState<TryOnState>(idle);
  const depsRef = useRef(deps);
  depsRef.current = deps;
  // Alerts speak the page's language (the state keeps the English texts; the page translates them).
  const localize = useLocalizeMessage();
  const localizeRef = useRef(localize);
  localizeRef.current = localize;
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => () => inFlight.current?.abort(), []);

  /** One try-on request from press to answer: the states, progress, timeout, counters and errors. */
  const execute = useCallback(
    async (
      engine: string | null,
      send: (userId: string, signal: AbortSignal, progressId: string | undefined) => Promise<TryOnResponse>,
      timeoutMs?: number,
    ) => {
      const d = depsRef.current;
      if (!d.user || inFlight.current) return;
      const ctrl = new AbortController();
      inFlight.current = ctrl;
      let timedOut = false;
      const timer = setTimeout(
        () => {
          timedOut = true;
          ctrl.abort();
        },
        timeoutMs ?? d.timeoutMs ?? CLIENT_TIMEOUT_MS,
      );
      const userId = d.user.id;
      setState({ ...idle, status: 'processing', message: MESSAGES.initializing, startedAt: Date.now(), engine });
      // Progress is optional: without events the page shows the processing state until the answer.
      let stopProgress: () => void = () => undefined;
      let progressId: string | undefined;
      if (d.openProgress) {
        try {
          progressId = (d.makeProgressId ?? (() => crypto.randomUUID()))();
          stopProgress = d.openProgress(progressId, (event) => {
            if (inFlight.current !== ctrl) return;
            setState((s) =>
              s.status === 'processing'
                ? {
                    ...s,
                    stage: event.stage === 'failed' ? s.stage : event.stage,
                    estimateSeconds: event.estimateSeconds,
                  }
                : s,
            );
          });
        } catch (e) {
          console.warn('Try-on progress unavailable', e);
          progressId = undefined;
        }
      }
      try {
        const res = await send(userId, ctrl.signal, progressId);
        d.updateUser((u) => applyTryOnResult(u, res));
        void d.refreshUser();
        setState({
          ...idle,
          status: 'success',
          message: MESSAGES.completed,
          resultUrl: res.imageUrl,
          engine,
          tryonId: res.tryonId ?? null,
          photosKeptUntil: res.photosKeptUntil ?? null,
        });
      } catch (e) {
        if (e instanceof ApiError && e.code === 'NO_CREDITS') {
          const parsed = NoCreditsResponseSchema.safeParse(e.body);
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
        setState({
          ...idle,
          status: 'error',
          error: message,
          errorCode: e instanceof ApiError ? (e.code ?? null) : null,
          engine,
        });
      } finally {
        stopProgress();
        clearTimeout(timer);
        inFlight.current = null;
      }
    },
    [],
  );

  const run = useCallback(
    async (person: File | null, clothing: File | null, category: TryOnCategory, lowerClothing?: File | null) => {
      const d = depsRef.current;
      if (!person || !clothing) {
        window.alert(localizeRef.current(MESSAGES.uploadBothPhotos));
        return;
      }
      if (!d.user) {
        window.alert(localizeRef.current(MESSAGES.userLoading));
        return;
      }
      await execute(d.engine ?? null, async (userId, signal, progressId) => {
        // A bottom goes with Upper Body only (a whole outfit).
        const lower = category === 'upper_body' ? (lowerClothing ?? undefined) : undefined;
        const [personUpload, clothingUpload, lowerUpload] = d.prepare
          ? await Promise.all([d.prepare(person), d.prepare(clothing), lower ? d.prepare(lower) : undefined])
          : [person, clothing, lower];
        return (d.process ?? processImage)({
          person: personUpload,
          clothing: clothingUpload,
          ...(lowerUpload ? { lowerClothing: lowerUpload } : {}),
          category,
          userId,
          api: d.engine,
          signal,
          ...(progressId ? { progressId } : {}),
        });
      });
    },
    [execute],
  );

  /**
   * "Make it photo-real": the preview `tryonId` again on the hosted engine `api`, from the photos
   * the server kept for it; the same states as a try-on, with its own progress.
   */
  const rerun = useCallback(
    async (tryonId: string, api: string, timeoutMs?: number) => {
      const d = depsRef.current;
      if (!d.user) return;
      await execute(
        api,
        (_userId, signal, progressId) =>
          (d.rerun ?? rerunTryOn)({ tryonId, api, signal, ...(progressId ? { progressId } : {}) }),
        timeoutMs,
      );
    },
    [execute],
  );

  /** Back to idle (for example once credits were bought after a NO_CREDITS refusal). */
  const reset = useCallback(() => setState((s) => (s.status === 'processing' ? s : idle)), []);

  return { state, run, rerun, reset };
}
