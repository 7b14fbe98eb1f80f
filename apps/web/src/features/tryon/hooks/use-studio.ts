import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  CATEGORY_VALUES,
  MAX_GARMENTS_PER_PRESS,
  MAX_UPLOAD_BYTES,
  WEB_MESSAGES,
  hasCredits,
  hasFreeTrial,
  pressCost,
  type KeptPhoto,
  type PublicConfig,
} from '@aidressup/contract';
import { makeProgressId as newProgressId, openProgressStream } from '../api/progress-stream';
import {
  defaultOfferedEngine,
  engineEstimate,
  engineKind,
  findEngine,
  firstHostedEngine,
  offeredEngines,
} from '../utils/progress-copy';
import { canTryOn, currentStep } from '../utils/steps';
import { useCategoryChoice, type CategoryChoiceDeps } from './use-category-choice';
import { useImageUpload, type ImageUpload } from './use-image-upload';
import { useMoreGarments } from './use-more-garments';
import { usePress } from './use-press';
import { usePasteImage } from './use-paste-image';
import { useResumeAfterPurchase } from './use-resume-after-purchase';
import { useTryOn, type PersonSource, type TryOnDeps } from './use-try-on';
import { clientTimeoutMs } from '../../../lib/client-timeout';

const KEPT_PHOTO_KEY = 'aidressup.keptPhoto';

/** The kept photo chosen, for the browser session (sessionStorage; never throws). */
function rememberKeptPhoto(id: string | null): void {
  try {
    if (id) window.sessionStorage.setItem(KEPT_PHOTO_KEY, id);
    else window.sessionStorage.removeItem(KEPT_PHOTO_KEY);
  } catch {
    // Storage unavailable: the choice lives for this page only.
  }
}

function rememberedKeptPhoto(): string | null {
  try {
    return window.sessionStorage.getItem(KEPT_PHOTO_KEY);
  } catch {
    return null;
  }
}

/** The file uploaded for a photo: reduced in the browser (loaded on first use), else the photo itself. */
function preparePhoto(file: File): Promise<File> {
  return import('../../../lib/photos/prepare-upload').then((m) => m.prepareUpload(file)).catch(() => file);
}

export interface StudioDeps extends Pick<
  TryOnDeps,
  | 'user'
  | 'updateUser'
  | 'setUser'
  | 'refreshUser'
  | 'onNoCredits'
  | 'process'
  | 'rerun'
  | 'openProgress'
  | 'makeProgressId'
> {
  /** The server's public configuration (upload limit, engines); null while it loads. */
  config: PublicConfig | null;
  /** The file uploaded for a photo; by default reduced in the browser. */
  prepare?: (file: File) => Promise<File>;
  classify?: CategoryChoiceDeps['classify'];
  /** The session could not start (its error); a press made while it was starting then says why. */
  sessionError?: string | null;
  /** Purchases completed on this page (the paywall's count): a try-on refused for want of credits resumes after one. */
  purchases?: number;
  /** A dialog is open (the paywall, the sign-in): a resumed try-on waits until it closes. */
  dialogOpen?: boolean;
}

/**
 * The try-on studio on the home page: the three photos, the category and engine choices, the
 * try-on itself, and what the page shows of them (step, button, result panel). The session and the
 * paywall come in as arguments; the page only lays the studio out. The photo reduction, the progress
 * stream and the server calls are the real ones unless a test passes its own.
 */
export function useStudio({
  config,
  user,
  updateUser,
  setUser,
  refreshUser,
  onNoCredits,
  process,
  rerun: rerunRequest,
  prepare = preparePhoto,
  openProgress = openProgressStream,
  makeProgressId = newProgressId,
  classify,
  sessionError = null,
  purchases = 0,
  dialogOpen = false,
}: StudioDeps) {
  const maxBytes = config?.maxUploadBytes ?? MAX_UPLOAD_BYTES;
  // Kept in this browser for the session, so Try Again (a reload) keeps the photos.
  const upload = useImageUpload(maxBytes, { role: 'person', keepAs: 'person' });
  /**
   * The person photo is one of the shopper's kept photos (My photos): chosen in the row (its
   * thumbnail is the preview), or the photo just picked, kept (its own preview stays).
   */
  const [kept, setKeptState] = useState<{ id: string; previewUrl: string | null; justKept: boolean } | null>(null);
  // Remembered for the browser session, so that Try Again (a reload) keeps the choice.
  const setKept = useCallback((value: { id: string; previewUrl: string | null; justKept: boolean } | null) => {
    setKeptState(value);
    rememberKeptPhoto(value?.id ?? null);
  }, []);
  const { select: selectUpload, remove: removeUpload } = upload;
  // The person card: the photo picked, else the kept photo chosen; picking another leaves the kept one.
  const person: ImageUpload = useMemo(
    () => ({
      ...upload,
      previewUrl: upload.previewUrl ?? kept?.previewUrl ?? null,
      select: (file) => {
        if (file) setKept(null);
        selectUpload(file);
      },
      remove: () => {
        setKept(null);
        removeUpload();
      },
    }),
    [upload, kept, selectUpload, removeUpload, setKept],
  );
  /** Chooses one of the kept photos as the person photo (the row); null: none. */
  const chooseKeptPhoto = useCallback(
    (photo: KeptPhoto | null) => {
      if (photo) {
        removeUpload();
        setKept({ id: photo.id, previewUrl: photo.thumbnailUrl, justKept: false });
      } else setKept(null);
    },
    [removeUpload, setKept],
  );
  const clothing = useImageUpload(maxBytes, { role: 'garment', keepAs: 'clothing' });
  // More garments for one press: each its own try-on (MAX_GARMENTS_PER_PRESS in all).
  const more = useMoreGarments(maxBytes, MAX_GARMENTS_PER_PRESS - 1);
  const [engineChoice, setEngineChoice] = useState<string | null>(null);
  // Never an engine health says is down: the choice falls back to the default, or the first one up.
  const engineId =
    engineChoice && offeredEngines(config).some((e) => e.id === engineChoice)
      ? engineChoice
      : defaultOfferedEngine(config);
  // The categories follow the engine: Shoes & Accessories only where the engine can dress them.
  const offered = findEngine(config, engineId)?.categories ?? CATEGORY_VALUES;
  // Until the shopper picks a category by hand, the one suggested for the garment photo is preselected.
  const categoryChoice = useCategoryChoice({ garment: clothing.file, ready: !!user, prepare, classify, offered });
  const { category } = categoryChoice;
  // A whole outfit: an optional bottom under an Upper Body garment (two try-ons).
  const bottom = useImageUpload(maxBytes, { role: 'garment', keepAs: 'bottom' });
  // A whole outfit is one garment's try-on: not with several garments.
  const outfitOffered = category === 'upper_body' && more.items.length === 0;
  const outfit = outfitOffered && !!bottom.file;
  const noteRefusalRef = useRef<() => void>(() => undefined);
  const tryOnDeps: TryOnDeps = {
    user,
    engine: engineId,
    timeoutMs: clientTimeoutMs(findEngine(config, engineId)?.estimateSeconds),
    updateUser,
    setUser,
    refreshUser,
    // The refused try-on is remembered: it resumes after a purchase.
    onNoCredits: () => {
      noteRefusalRef.current();
      onNoCredits();
    },
    process,
    rerun: rerunRequest,
    prepare,
    openProgress,
    makeProgressId,
  };
  const { state, run, rerun, retryOn, reset, cancel, notice, clearNotice } = useTryOn(tryOnDeps);
  const press = usePress(tryOnDeps);
  /** Why a press of several garments did not start (its cost not covered): shown by the button. */
  const [pressNotice, setPressNotice] = useState<string | null>(null);
  const garmentCount = (clothing.file ? 1 : 0) + (clothing.file ? more.items.length : 0);
  // The engine of the try-on under way or shown, else the one chosen.
  const shownEngine = findEngine(config, state.engine ?? engineId);
  const hosted = firstHostedEngine(config);
  // The engine a refusal offers instead: the server's (a garment being worn: a hosted engine that can
  // use the photo), or, for a garment the engine could not place on the body, a hosted engine that is up.
  const alternative =
    state.status !== 'error'
      ? undefined
      : state.alternativeEngine
        ? findEngine(config, state.alternativeEngine.id)
        : state.errorCode === 'GARMENT_NOT_PLACED' && hosted && hosted.id !== state.engine
          ? hosted
          : undefined;

  const personCard = useRef<HTMLElement>(null);
  const clothingCard = useRef<HTMLElement>(null);
  const bottomCard = useRef<HTMLElement>(null);
  usePasteImage(
    [
      {
        get element() {
          return personCard.current;
        },
        isEmpty: !person.previewUrl,
        select: person.select,
      },
      {
        get element() {
          return clothingCard.current;
        },
        isEmpty: !clothing.file,
        select: clothing.select,
      },
      {
        // Optional: a pasted photo goes here only while this card has focus.
        get element() {
          return outfitOffered ? bottomCard.current : null;
        },
        isEmpty: false,
        select: bottom.select,
      },
    ],
    state.status === 'processing',
  );

  const removeBottom = useCallback(() => {
    bottom.remove();
    requestAnimationFrame(() =>
      bottomCard.current?.querySelector<HTMLElement>('[data-testid="upload-bottom-dropzone"]')?.focus(),
    );
  }, [bottom]);

  const tryAnotherGarment = useCallback(() => {
    clothing.remove();
    more.clear();
    press.clear();
    reset();
    // Focus moves to the now empty clothing card, ready for the next garment.
    requestAnimationFrame(() =>
      clothingCard.current?.querySelector<HTMLElement>('[data-testid="upload-clothing-dropzone"]')?.focus(),
    );
  }, [clothing, more, press, reset]);

  const processing = state.status === 'processing' || press.processing;
  const resultRef = useRef<HTMLDivElement>(null);

  // Bring the result panel into view when a try-on starts (it sits below the upload cards on phones).
  useEffect(() => {
    if (!processing) return;
    const el = resultRef.current;
    if (!el) return;
    const rect = el.getBoundingClientRect();
    if (rect.top > window.innerHeight - 120 || rect.bottom < 0) {
      const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
      el.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    }
  }, [processing]);

  // The result (or why there is none) is what the shopper waits for: bring it into view and put the
  // keyboard and screen-reader focus on its heading (on a phone it is below the fold).
  const settled = state.status === 'success' || state.status === 'error' ? state.status : null;
  useEffect(() => {
    if (!settled) return;
    const el = resultRef.current;
    const heading = el?.querySelector<HTMLElement>('[data-result-heading]');
    if (!el || !heading) return;
    heading.focus({ preventScroll: true });
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    el.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  }, [settled, state.resultUrl]);
  // A press of several garments: the same once its last try-on has settled.
  const pressSettled = press.items.length > 0 && !press.processing;
  useEffect(() => {
    if (!pressSettled) return;
    resultRef.current?.querySelector<HTMLElement>('[data-result-heading]')?.focus({ preventScroll: true });
  }, [pressSettled]);

  const hasPerson = !!upload.file || !!kept;
  // The notice under Try with AI goes once what it asked for is there.
  const ready = hasPerson && !!clothing.file && !!user;
  useEffect(() => {
    if (ready) clearNotice();
  }, [ready, clearNotice]);
  // A press's notice goes when the garments or the balance change.
  const balance = user ? `${user.credits}:${user.free_trials_used}` : '';
  useEffect(() => setPressNotice(null), [garmentCount, balance]);

  // Once a purchase gives the user credits again, the NO_CREDITS refusal no longer applies.
  const canPay = !!user && (hasCredits(user) || hasFreeTrial(user));
  useEffect(() => {
    if (state.errorCode === 'NO_CREDITS' && canPay) reset();
  }, [state.errorCode, canPay, reset]);
  const flags = {
    hasPerson,
    hasClothing: !!clothing.file,
    processing,
    hasResult: state.status === 'success' || press.items.some((i) => i.state.status === 'success'),
  };
  const personSource: PersonSource | null = kept ? { keptPhotoId: kept.id } : upload.file;

  /**
   * A press made before the session's user was there (the session starts after an idle moment
   * or the first interaction): it says the specification's "Please wait, user is loading...", and
   * runs by itself once the user is there, once (a second press meanwhile adds nothing), or says
   * why not when the session fails.
   */
  const [pressWaiting, setPressWaiting] = useState(false);
  const [sessionNotice, setSessionNotice] = useState<string | null>(null);

  /** Try with AI: one garment as before; several, each its own try-on, once the balance covers them all. */
  const tryOn = async (): Promise<void> => {
    if (!user && personSource && clothing.file) {
      setSessionNotice(null);
      if (!sessionError) setPressWaiting(true);
      else setSessionNotice(WEB_MESSAGES.sessionFailed);
      // The notice while the user loads (run says it and sends nothing).
      if (!sessionError) await run(personSource, clothing.file, category);
      return;
    }
    const garments = clothing.file
      ? [{ file: clothing.file, previewUrl: clothing.previewUrl }, ...(outfit ? [] : more.items)]
      : [];
    if (garments.length <= 1) {
      press.clear();
      return run(personSource, clothing.file, category, outfit ? bottom.file : null);
    }
    // The single result's panel gives way to the row of results.
    if (!personSource) return run(null, clothing.file, category);
    if (!user) return run(personSource, clothing.file, category);
    if (!pressCost(user, garments.length).covered) {
      // Nothing is sent, so nothing is charged: the paywall first.
      setPressNotice(WEB_MESSAGES.pressNotCovered);
      tryOnDeps.onNoCredits();
      return;
    }
    setPressNotice(null);
    reset();
    await press.run(personSource, garments, category);
  };

  const tryOnRef = useRef(tryOn);
  tryOnRef.current = tryOn;

  // After a purchase, the try-on refused for want of credits runs by itself (once), and the focus
  // goes to the result panel's heading (the paywall's opener may be gone).
  const pressCount = outfit ? 1 : garmentCount;
  const { noteRefusal } = useResumeAfterPurchase({
    purchases,
    blocked: dialogOpen || processing || !user,
    covered: !!user && (pressCount > 1 ? pressCost(user, pressCount).covered : canPay),
    inputs: [upload.file, kept?.id, clothing.file, more.items, outfit ? bottom.file : null, category, engineId],
    resume: () => {
      void tryOnRef.current();
      requestAnimationFrame(() =>
        resultRef.current?.querySelector<HTMLElement>('[data-result-heading]')?.focus({ preventScroll: true }),
      );
    },
  });
  noteRefusalRef.current = noteRefusal;
  useEffect(() => {
    if (!pressWaiting) return;
    if (user) {
      setPressWaiting(false);
      void tryOnRef.current();
    } else if (sessionError) {
      setPressWaiting(false);
      clearNotice();
      setSessionNotice(WEB_MESSAGES.sessionFailed);
    }
  }, [pressWaiting, user, sessionError, clearNotice]);
  // The session's notice goes once there is a user after all.
  useEffect(() => {
    if (user) setSessionNotice(null);
  }, [user]);

  return {
    person,
    /** The kept photo the try-on uses (My photos), if any. */
    keptPhotoId: kept?.id ?? null,
    /** The kept photo in use was kept just now, from the photo picked (not chosen in the row). */
    keptJustNow: !!kept?.justKept,
    chooseKeptPhoto,
    /** The photo just picked is kept now: it becomes that kept photo. */
    markUploadKept: useCallback(
      (photo: KeptPhoto) => {
        removeUpload();
        setKept({ id: photo.id, previewUrl: photo.thumbnailUrl, justKept: true });
      },
      [removeUpload, setKept],
    ),
    /**
     * The kept photos have loaded: the one chosen earlier in this browser session is chosen again
     * (after Try Again's reload), unless a photo is picked or one is chosen already.
     */
    restoreKeptPhoto: useCallback(
      (photos: readonly KeptPhoto[]) => {
        if (kept || upload.file) return;
        const id = rememberedKeptPhoto();
        const photo = id ? photos.find((p) => p.id === id) : undefined;
        if (photo) setKept({ id: photo.id, previewUrl: photo.thumbnailUrl, justKept: false });
      },
      [kept, upload.file, setKept],
    ),
    clothing,
    /** The garments beyond the first, for a press of several try-ons. */
    more,
    /** Garments in the next press (0 without a clothing photo). */
    garmentCount,
    /** What the next press costs when it has several garments (free trials first), and whether the balance covers it. */
    pressCost: user && garmentCount > 1 ? pressCost(user, garmentCount) : null,
    /** The try-ons of a press of several garments, side by side. */
    press,
    bottom,
    category,
    /** The categories the chosen engine offers (the picker's list). */
    offeredCategories: offered,
    chooseCategory: categoryChoice.choose,
    categoryNote: categoryChoice.note,
    /** The bottom card is shown (Upper Body only). */
    outfitOffered,
    /** A bottom goes with the garment: a whole outfit. */
    outfit,
    engineId,
    chooseEngine: setEngineChoice,
    state,
    processing,
    step: currentStep(flags),
    canTry: canTryOn(flags),
    maxMegabytes: Math.round(maxBytes / (1024 * 1024)),
    /** The engine the result panel speaks of: its kind and estimate. */
    resultEngine: { kind: engineKind(shownEngine), estimate: engineEstimate(shownEngine) },
    /** The engine that made the result shown when another than the one asked (failover): its label. */
    madeBy:
      state.status === 'success' && state.failedOver ? (shownEngine?.label ?? state.engine ?? undefined) : undefined,
    /** A hosted engine the result panel can point to, and how to switch to it. */
    hostedEngine: hosted
      ? { label: hosted.label, selected: engineId === hosted.id, onUse: () => setEngineChoice(hosted.id) }
      : undefined,
    /**
     * "Make it photo-real": the quick preview shown, again on the hosted engine, from the photos the
     * server keeps for it until `keptUntil` (none: no hosted engine, or the photos were not kept).
     */
    photoReal:
      hosted && state.status === 'success' && state.tryonId && state.photosKeptUntil
        ? {
            label: hosted.label,
            keptUntil: state.photosKeptUntil,
            onRun: () => {
              if (state.tryonId) void rerun(state.tryonId, hosted.id, clientTimeoutMs(hosted.estimateSeconds));
            },
          }
        : undefined,
    /**
     * After a refusal another engine can take (GARMENT_WORN: a hosted engine that dresses from a
     * photo of the garment being worn): its label, and the same try-on (photos, category) on it,
     * which also becomes the chosen engine.
     */
    alternativeEngine: alternative
      ? {
          label: alternative.label,
          reason: state.errorCode === 'GARMENT_NOT_PLACED' ? ('notPlaced' as const) : ('worn' as const),
          onRun: () => {
            setEngineChoice(alternative.id);
            void retryOn(alternative.id, clientTimeoutMs(alternative.estimateSeconds));
          },
        }
      : undefined,
    tryOn,
    /** Leaves the line while waiting for the engine (nothing was charged). */
    leaveLine: cancel,
    /** Why Try with AI did nothing, in the specification's words (shown next to the button). */
    notice: notice ?? pressNotice ?? sessionNotice,
    /** A press waits for the session's user, and runs once it is there. */
    pressWaiting,
    removeBottom,
    tryAnotherGarment,
    cards: { person: personCard, clothing: clothingCard, bottom: bottomCard },
    resultRef,
  };
}
