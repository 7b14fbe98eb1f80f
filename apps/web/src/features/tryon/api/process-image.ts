import { MESSAGES, type TryOnCategory, type TryOnResponse } from '@aidressup/contract';
import { apiRequest, loadResponseSchemas } from '../../../lib/api-client';

export interface ProcessImageInput {
  /** The person photo, or (`personPhotoId`) one of the shopper's kept photos instead. */
  person?: File | undefined;
  personPhotoId?: string | undefined;
  clothing: File;
  /** A whole outfit's bottom (with category upper_body): two try-ons are used. */
  lowerClothing?: File | undefined;
  category: TryOnCategory;
  userId: string;
  api: string | undefined;
  signal: AbortSignal;
  /** Follows the try-on's stages on GET /api/tryon-progress/{progressId} (contract progress.ts). */
  progressId?: string;
  /** The ticket of an earlier ENGINE_BUSY answer: keeps the place in line. */
  lineTicket?: string;
}

/** POST /api/process-image (multipart). */
export function processImage(input: ProcessImageInput): Promise<TryOnResponse> {
  const form = new FormData();
  // Text fields first, so the server knows the progress id before the photos arrive.
  if (input.progressId) form.append('progressId', input.progressId);
  if (input.lineTicket) form.append('lineTicket', input.lineTicket);
  if (input.person) form.append('userImage', input.person);
  else if (input.personPhotoId) form.append('personPhotoId', input.personPhotoId);
  form.append('clothingImage', input.clothing);
  if (input.lowerClothing) form.append('lowerClothingImage', input.lowerClothing);
  form.append('category', input.category);
  form.append('userId', input.userId);
  if (input.api) form.append('api', input.api);
  return apiRequest(
    '/api/process-image',
    loadResponseSchemas().then((s) => s.TryOnResponseSchema),
    {
      method: 'POST',
      body: form,
      signal: input.signal,
      fallbackError: MESSAGES.unknownError,
    },
  );
}
