/**
 * POST /api/garments/classify: a suggested category for a garment photo, so the page can preselect
 * it. Free (no credit is used); the answer is only a suggestion, never applied by the server.
 */
import { z } from 'zod';
import { CATEGORY_VALUES } from './categories.js';

/** The multipart form's one file field (the same name as the try-on's clothing photo). */
export const GARMENT_CLASSIFY_FILE_FIELD = 'clothingImage';

/** The page preselects a suggestion only at or above this confidence. */
export const CATEGORY_SUGGESTION_MIN_CONFIDENCE = 0.6;

export const GarmentClassifyResponseSchema = z.object({
  success: z.literal(true),
  /** The most likely category. */
  category: z.enum(CATEGORY_VALUES),
  /** Its probability under the classifier, 0..1 (0 when no garment could be cut out of the photo). */
  confidence: z.number().min(0).max(1),
});
export type GarmentClassifyResponse = z.infer<typeof GarmentClassifyResponseSchema>;
