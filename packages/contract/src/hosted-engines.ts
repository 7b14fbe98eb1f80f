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
 * FASHN try-on models (FASHN_MODEL): `tryon-v1.6` (stable, 5–17 s, 1 credit) or `tryon-max`
 * (experimental, about 50 s and up to 120 s, 4 credits, higher fidelity).
 */
export const FASHN_MODELS = ['tryon-v1.6', 'tryon-max'] as const;
export type FashnModel = (typeof FASHN_MODELS)[number];
export const FASHN_DEFAULT_MODEL: FashnModel = 'tryon-v1.6';
/**
 * FASHN models that also dress shoes, bags, hats and jewellery (the `accessories` category):
 * Try-On Max ("supports clothing, shoes, hats, jewelry, bags, and other wearable fashion items").
 * Try-On v1.6 takes tops, bottoms and one-pieces only.
 */
export const FASHN_ACCESSORY_MODELS: readonly FashnModel[] = ['tryon-max'];

/** FASHN v1.6 `moderation_level` (FASHN_MODERATION): conservative also blocks swimwear and underwear. */
export const FASHN_MODERATION_LEVELS = ['conservative', 'permissive', 'none'] as const;
export type FashnModeration = (typeof FASHN_MODERATION_LEVELS)[number];
export const FASHN_DEFAULT_MODERATION: FashnModeration = 'permissive';

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

/**
 * The fal.ai try-on endpoints the `fal` engine knows the inputs of (FAL_MODEL); any other is
 * refused at start. See docs/engines.md for each one's inputs.
 */
export const FAL_MODELS = [
  'fal-ai/fashn/tryon/v1.6',
  'fal-ai/image-apps-v2/virtual-try-on',
  'fal-ai/flux-pro/v1/vto',
  'fal-ai/leffa/virtual-tryon',
  'fal-ai/kling/v1-5/kolors-virtual-try-on',
] as const;
export type FalModel = (typeof FAL_MODELS)[number];
/**
 * The fal endpoints that document dressing from a photo of the garment being worn (on a model):
 * FASHN's, with `garment_photo_type: 'auto'`. The others document a garment image only.
 */
export const FAL_WORN_GARMENT_MODELS: readonly FalModel[] = ['fal-ai/fashn/tryon/v1.6'];
export const FAL_DEFAULT_MODEL: FalModel = 'fal-ai/fashn/tryon/v1.6';
