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

/**
 * Google's dedicated try-on model on Vertex AI (the `vertex-tryon` engine). The request's
 * `safetySetting` and `personGeneration` (VERTEX_SAFETY_SETTING, VERTEX_PERSON_GENERATION) take
 * the values of Google's `VirtualTryOnModelParams`; Google's defaults are `block_medium_and_above`
 * and `allow_adult`. See docs/engines.md for the sources and the date read.
 */
export const VERTEX_DEFAULT_MODEL = 'virtual-try-on-001';
export const VERTEX_DEFAULT_LOCATION = 'us-central1';
export const VERTEX_SAFETY_SETTINGS = [
  'block_low_and_above',
  'block_medium_and_above',
  'block_only_high',
  'block_none',
] as const;
export type VertexSafetySetting = (typeof VERTEX_SAFETY_SETTINGS)[number];
export const VERTEX_DEFAULT_SAFETY_SETTING: VertexSafetySetting = 'block_medium_and_above';
export const VERTEX_PERSON_GENERATION = ['dont_allow', 'allow_adult', 'allow_all'] as const;
export type VertexPersonGeneration = (typeof VERTEX_PERSON_GENERATION)[number];
export const VERTEX_DEFAULT_PERSON_GENERATION: VertexPersonGeneration = 'allow_adult';
/** Vertex takes images up to 10 MB and answers at the person photo's size: 1536 px keeps both small. */
export const VERTEX_INPUT: HostedInputSpec = { minSide: 1024, maxSide: 1536, jpegQuality: 92 };

/**
 * Try-on models whose inputs the `replicate` and `cog` engines know (REPLICATE_MODEL, COG_MODEL):
 * Pruna's P-Image-Try-On (a person and up to 11 garments in one call) and IDM-VTON, whose code and
 * weights are licensed CC BY-NC-SA 4.0: non-commercial use only.
 */
export const TRYON_MODEL_PRESETS = ['p-image-try-on', 'idm-vton'] as const;
export type TryOnModelPreset = (typeof TRYON_MODEL_PRESETS)[number];
/** The Replicate model each preset is, by `owner/name`. */
export const REPLICATE_PRESET_MODELS: Record<TryOnModelPreset, string> = {
  'p-image-try-on': 'prunaai/p-image-try-on',
  'idm-vton': 'cuuupid/idm-vton',
};
export const REPLICATE_DEFAULT_MODEL = REPLICATE_PRESET_MODELS['p-image-try-on'];
/** Presets whose model licence forbids commercial use (the server logs a warning when one is chosen). */
export const NON_COMMERCIAL_PRESETS: readonly TryOnModelPreset[] = ['idm-vton'];
/**
 * The person and garment photos for Replicate and Cog models, sent as data URIs: 1280 px at
 * quality 90 keeps each under the 1 MB Replicate recommends for a data URI (a larger one is
 * re-encoded smaller; REPLICATE_DATA_URI_MAX).
 */
export const REPLICATE_INPUT: HostedInputSpec = { minSide: 768, maxSide: 1280, jpegQuality: 90 };
/** Replicate: "a data URI … is only recommended if the file is less than 1MB". */
export const REPLICATE_DATA_URI_MAX = 1_000_000;
