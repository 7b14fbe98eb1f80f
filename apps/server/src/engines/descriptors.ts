/**
 * Each hosted engine described once: its id, its label, what it dresses and whether it takes a
 * photo of the garment being worn, from its own settings. The adapter (`engines/<id>.ts`) builds its
 * `TryOnEngine` from its descriptor, and the registry lists the engine from it without loading the
 * adapter (heavy code loads only for an engine that is configured).
 */
import {
  CATEGORY_VALUES,
  FAL_DEFAULT_MODEL,
  FAL_WORN_GARMENT_MODELS,
  FASHN_ACCESSORY_MODELS,
  FASHN_DEFAULT_MODEL,
  TRYON_CATEGORY_VALUES,
  type FashnModel,
  type TryOnCategory,
  type TryOnModelPreset,
} from '@aidressup/contract';
import type { Config } from '../config.js';
import { modelCategories } from './model-inputs.js';

export interface EngineDescriptor<S> {
  readonly id: string;
  readonly label: string;
  /** Its settings in the configuration; undefined when it is not enabled. */
  settings(config: Config): S | undefined;
  /** What it dresses, in the page's order (`accessories` only where it can). */
  categories(settings: S): readonly TryOnCategory[];
  /**
   * It dresses from a photo of the garment being worn (by a model, or a person photo used as the
   * garment), which the built-in engine refuses (GARMENT_WORN): the page then offers it instead.
   */
  takesWornGarments(settings: S): boolean;
}

export const NANO_BANANA: EngineDescriptor<object> = {
  id: 'nano-banana',
  label: 'Nano Banana (Gemini)',
  settings: (c) => c.engines.gemini,
  // The instruction names the accessory (buildTryOnInstruction).
  categories: () => TRYON_CATEGORY_VALUES,
  // The instruction asks for the item in the second image, worn or not.
  takesWornGarments: () => true,
};

export const FASHN: EngineDescriptor<{ model?: FashnModel | undefined }> = {
  id: 'fashn',
  label: 'FASHN',
  settings: (c) => c.engines.fashn,
  categories: (s) =>
    FASHN_ACCESSORY_MODELS.includes(s.model ?? FASHN_DEFAULT_MODEL) ? TRYON_CATEGORY_VALUES : CATEGORY_VALUES,
  // `garment_photo_type: 'auto'`: flat-lay and on-model photos alike.
  takesWornGarments: () => true,
};

export const FAL: EngineDescriptor<{ model?: string | undefined }> = {
  id: 'fal',
  label: 'fal.ai',
  settings: (c) => c.engines.fal,
  // None of the supported fal endpoints documents shoes or accessories.
  categories: () => CATEGORY_VALUES,
  // Only where the endpoint documents on-model garment photos (FASHN's, `garment_photo_type: 'auto'`).
  takesWornGarments: (s) => (FAL_WORN_GARMENT_MODELS as readonly string[]).includes(s.model ?? FAL_DEFAULT_MODEL),
};

export const VERTEX: EngineDescriptor<object> = {
  id: 'vertex-tryon',
  label: 'Google Virtual Try-On',
  settings: (c) => c.engines.vertex,
  // Google documents the model for clothing (tops, bottoms, dresses).
  categories: () => CATEGORY_VALUES,
  // Google speaks of product images; photos of the garment being worn are not documented.
  takesWornGarments: () => false,
};

type ModelSettings = { preset?: TryOnModelPreset | undefined };

export const REPLICATE: EngineDescriptor<ModelSettings> = {
  id: 'replicate',
  label: 'Replicate',
  settings: (c) => c.engines.replicate,
  categories: (s) => modelCategories(s.preset),
  // Pruna: "garment refs can be flat lays, product shots, or lifestyle photos"; IDM-VTON wants in-shop photos.
  takesWornGarments: (s) => s.preset === 'p-image-try-on',
};

export const COG: EngineDescriptor<ModelSettings> = {
  id: 'cog',
  label: 'Own GPU (Cog)',
  settings: (c) => c.engines.cog,
  categories: (s) => modelCategories(s.preset),
  takesWornGarments: (s) => s.preset === 'p-image-try-on',
};
