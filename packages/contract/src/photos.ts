/**
 * My photos: person photos a shopper chooses to keep for later try-ons ("Keep this photo for my
 * next try-ons", off by default). At most MAX_KEPT_PHOTOS per account, encrypted at rest, never
 * shown to operators, deleted on the shopper's Delete, with the account, and after
 * KEPT_PHOTO_DAYS (the server's setting, 365 by default) without use. A try-on names one with
 * `personPhotoId` instead of uploading `userImage` (api.ts, TryOnFieldsSchema).
 */
import { z } from 'zod';

/** Person photos one account keeps at most. */
export const MAX_KEPT_PHOTOS = 3;
/** A kept photo unused this many days is deleted (KEPT_PHOTO_DAYS; 12 months). */
export const DEFAULT_KEPT_PHOTO_DAYS = 365;
/** Garment photos one press of Try with AI takes at most: each is its own try-on. */
export const MAX_GARMENTS_PER_PRESS = 4;

/** A kept photo's id (short base64url text, like every id). */
export const PhotoIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
export const PhotoIdParamsSchema = z.object({ id: PhotoIdSchema });
export type PhotoIdParams = z.infer<typeof PhotoIdParamsSchema>;

export const KeptPhotoSchema = z.object({
  id: PhotoIdSchema,
  createdAt: z.string(),
  /** The last try-on that used it (its keeping, before any). */
  lastUsedAt: z.string(),
  /** A small picture of it, for its owner only (GET /api/photos/{id}/thumbnail). */
  thumbnailUrl: z.string(),
});
export type KeptPhoto = z.infer<typeof KeptPhotoSchema>;

// ---------- GET /api/photos ----------
export const ListPhotosResponseSchema = z.object({
  success: z.literal(true),
  /** Most recently used first. */
  photos: z.array(KeptPhotoSchema),
});
export type ListPhotosResponse = z.infer<typeof ListPhotosResponseSchema>;

// ---------- POST /api/photos (multipart `photo`) ----------
/** 409 PHOTO_LIMIT when MAX_KEPT_PHOTOS are kept already; a photo with no single person in it is refused (422). */
export const KeepPhotoResponseSchema = z.object({ success: z.literal(true), photo: KeptPhotoSchema });
export type KeepPhotoResponse = z.infer<typeof KeepPhotoResponseSchema>;

// ---------- DELETE /api/photos/{id} ----------
export const DeletePhotoResponseSchema = z.object({ success: z.literal(true) });
export type DeletePhotoResponse = z.infer<typeof DeletePhotoResponseSchema>;
