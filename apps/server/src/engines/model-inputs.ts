/**
 * The request body of a try-on model run on Replicate or a Cog server: our photos and category
 * under the names the model's schema gives (a preset's, or COG_INPUTS).
 */
import {
  CATEGORY_VALUES,
  MESSAGES,
  TRYON_CATEGORY_VALUES,
  type TryOnCategory,
  type TryOnModelPreset,
} from '@aidressup/contract';
import { EngineError } from '@aidressup/engine';
import type { ModelInputs } from '../config/hosted-engines.js';

/** What a model dresses: Pruna's takes any wearable item (shoes, bags, hats too); the others clothing. */
export function modelCategories(preset: TryOnModelPreset | undefined): readonly TryOnCategory[] {
  return preset === 'p-image-try-on' ? TRYON_CATEGORY_VALUES : CATEGORY_VALUES;
}

/**
 * The model's `input`: the person, the garments (a list for a model that takes several, in the
 * order top then bottom), the category in the model's words when it takes one, and fixed inputs.
 */
export function modelInput(
  inputs: ModelInputs,
  person: string,
  garments: readonly string[],
  category: TryOnCategory,
  provider: string,
): Record<string, unknown> {
  if (!inputs.garmentList && garments.length !== 1)
    throw new Error(`${provider}: this model takes one garment per call`);
  const body: Record<string, unknown> = {
    ...inputs.extra,
    [inputs.person]: person,
    [inputs.garment]: inputs.garmentList ? [...garments] : garments[0],
  };
  if (inputs.category) {
    if (category === 'accessories')
      throw new EngineError('ENGINE_FAILED', MESSAGES.categoryNotOffered, `${provider}: accessories are not offered`);
    body[inputs.category] = inputs.categories?.[category] ?? category;
  }
  return body;
}

/** The first image URL of a model's output: a URL, a list of URLs, or `{image}` / `{images}`. */
export function firstOutputUrl(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map(firstOutputUrl).find((u) => u !== undefined);
  if (output && typeof output === 'object') {
    const o = output as Record<string, unknown>;
    return firstOutputUrl(o.image ?? o.images ?? o.output);
  }
  return undefined;
}
