/**
 * Messages for failures of the hosted try-on engines (nano-banana, FASHN, fal) that the
 * general engine messages do not cover. Every one tells the shopper they were not charged.
 */
export const HOSTED_ENGINE_MESSAGES = {
  noImage:
    'The AI could not create a try-on image from these photos. You have not been charged; please try again or use different photos.',
  busy: 'The try-on service is busy right now. You have not been charged; please try again in a minute.',
  photoUnreadable:
    'The try-on service could not read one of the photos. You have not been charged; please try another photo.',
  poseNotFound:
    'The body pose could not be recognised in the person photo. You have not been charged; please use a photo of one person, standing, facing the camera.',
  garmentUnrecognised:
    'The clothing photo could not be recognised. You have not been charged; please use a photo of the garment laid flat, on a hanger or worn by a model.',
  unavailable:
    'This try-on engine is not available right now. You have not been charged; please try again later or choose another engine.',
} as const;

export type HostedEngineMessageKey = keyof typeof HOSTED_ENGINE_MESSAGES;

/**
 * Gemini image models (the `nano-banana` engine). The preview ids
 * (`gemini-3.1-flash-image-preview`, `gemini-3-pro-image-preview`) were shut down on
 * 25 June 2026, and `gemini-2.5-flash-image` shuts down on 2 October 2026; see
 * docs/engines.md for the source and the date checked.
 */
export const GEMINI_DEFAULT_MODEL = 'gemini-3.1-flash-image';
/** The higher-quality (slower, dearer) choice for GEMINI_MODEL. */
export const GEMINI_HIGH_QUALITY_MODEL = 'gemini-3-pro-image';
/** The models this build knows to be current, for the operator's log line when one is retired. */
export const GEMINI_CURRENT_MODELS = [GEMINI_DEFAULT_MODEL, GEMINI_HIGH_QUALITY_MODEL] as const;

/** FASHN try-on v1.6 modes: performance ≈ 5 s, balanced ≈ 8 s, quality 12–17 s (FASHN's figures). */
export const FASHN_MODES = ['performance', 'balanced', 'quality'] as const;
export type FashnMode = (typeof FASHN_MODES)[number];
export const FASHN_DEFAULT_MODE: FashnMode = 'balanced';

/**
 * What a hosted engine wants its input photos to be: the longest side is brought into
 * [minSide, maxSide] (never beyond the photo's own size unless it is below minSide) and
 * re-encoded as JPEG at `jpegQuality`.
 */
export interface HostedInputSpec {
  minSide: number;
  maxSide: number;
  jpegQuality: number;
}

/** Gemini works at about one megapixel: 1024 px is enough and keeps the request small. */
export const GEMINI_INPUT: HostedInputSpec = { minSide: 1024, maxSide: 1024, jpegQuality: 90 };
/**
 * FASHN processes at 864×1296 and recommends inputs up to 2000 px at JPEG quality ~95, so
 * a portrait reaches it without being upscaled (the same model runs behind fal).
 */
export const FASHN_INPUT: HostedInputSpec = { minSide: 1024, maxSide: 2000, jpegQuality: 95 };
