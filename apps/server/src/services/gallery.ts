/**
 * My Gallery: pages of the user's kept results (by an opaque cursor), deleting a result, and
 * sharing it by an unguessable public token until the owner stops or the result expires.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { SHARE_PATH_PREFIX, type ReportReason, type TryOnCategory, type TryOnItem } from '@aidressup/contract';
import type { Database, TryOnReportRow, TryOnRow } from '../db/schema.js';
import type { Storage, StoredStream } from '../storage/storage.js';
import type { SealedStore } from '../storage/sealed-store.js';
import { AppError } from '../errors.js';
import {
  deleteTryOnOfUser,
  findSharedResult,
  findTryOn,
  listResultsForUser,
  previewPhotosOf,
  shareTryOn,
  unshareTryOn,
  type ResultCursor,
} from '../repositories/tryons.js';
import { reportsOfTryOns } from '../repositories/reports.js';
import { iso } from '../db/ids.js';
import { isPreviewEngine } from '../tryon/preview-photos.js';

export interface GalleryDeps {
  db: Kysely<Database>;
  storage: Storage;
  clock: () => Date;
  log: FastifyBaseLogger;
}

/** `<created_at>|<id>` as base64url: rows' timestamps are ISO-8601 UTC, ids base64url. */
const CURSOR_TEXT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([A-Za-z0-9_-]{1,64})$/;

function encodeCursor(cursor: ResultCursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

/** The cursor a page handed out; anything else is VALIDATION_ERROR. */
function decodeCursor(text: string): ResultCursor {
  const match = CURSOR_TEXT.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match || encodeCursor({ createdAt: match[1]!, id: match[2]! }) !== text) throw new AppError('VALIDATION_ERROR');
  return { createdAt: match[1]!, id: match[2]! };
}

/** A share token: 32 random bytes, base64url (43 characters). */
function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

export function shareUrl(origin: string, token: string): string {
  return `${origin}${SHARE_PATH_PREFIX}${token}`;
}

function toItem(
  row: TryOnRow,
  origin: string,
  now: Date,
  report?: Pick<TryOnReportRow, 'status' | 'reason'>,
): TryOnItem {
  const preview = isPreviewEngine(row.engine);
  const photosKeptUntil = preview && photosKept(row, now) ? row.photos_until : null;
  return {
    id: row.id,
    imageUrl: `/api/results/${row.result_name}`,
    // A text column; the response schema checks it is one of the categories.
    category: row.category as TryOnCategory,
    engine: row.engine,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    shareUrl: row.share_token ? shareUrl(origin, row.share_token) : null,
    report: report ? { status: report.status, reason: report.reason as ReportReason } : null,
    preview,
    photosKeptUntil,
    garmentUrl: photosKeptUntil ? `/api/tryons/${row.id}/garment` : null,
  };
}

/** True while a try-on's preview photos are kept (their time not yet over). */
function photosKept(row: TryOnRow, now: Date): row is TryOnRow & { photos_until: string } {
  return !!row.kept_photos && !!row.photos_until && row.photos_until > iso(now);
}

/** The longer side of a garment's thumbnail in My Gallery, in pixels. */
export const GARMENT_THUMBNAIL_PX = 256;

/**
 * A small WEBP of the garment photo a preview of the user's was made from, read from its sealed
 * copy while the preview's photos are kept. Another user's try-on, an unknown one, one that kept
 * no photos or whose time is over, and a copy gone or unreadable: NOT_FOUND.
 */
export async function garmentThumbnail(
  deps: { db: Kysely<Database>; vault: SealedStore; clock: () => Date },
  userId: string,
  id: string,
): Promise<Buffer> {
  const row = await findTryOn(deps.db, id);
  if (!row || row.user_id !== userId || !photosKept(row, deps.clock())) throw new AppError('NOT_FOUND');
  const key = previewPhotosOf(row)?.garment;
  const opened = key ? await deps.vault.get(key) : null;
  if (!opened) throw new AppError('NOT_FOUND');
  try {
    return await sharp(opened.body)
      .resize(GARMENT_THUMBNAIL_PX, GARMENT_THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw new AppError('NOT_FOUND');
  }
}

/** One page of the user's kept results, newest first, and the cursor of the next page (or null). */
export async function listGalleryPage(
  deps: Pick<GalleryDeps, 'db' | 'clock'>,
  userId: string,
  page: { limit: number; before?: string | undefined },
  origin: string,
): Promise<{ items: TryOnItem[]; nextCursor: string | null }> {
  const before = page.before === undefined ? undefined : decodeCursor(page.before);
  // One row more than the page: whether another page follows, without a count.
  const rows = await listResultsForUser(deps.db, userId, deps.clock(), page.limit + 1, before);
  const pageRows = rows.slice(0, page.limit);
  const last = pageRows[pageRows.length - 1];
  const reports = await reportsOfTryOns(
    deps.db,
    pageRows.map((row) => row.id),
  );
  return {
    items: pageRows.map((row) => toItem(row, origin, deps.clock(), reports.get(row.id))),
    nextCursor: rows.length > page.limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}

/**
 * Deletes a settled try-on of the user's: the row first, then its stored result and preview photos. A try-on still
 * processing, another user's or an unknown one is NOT_FOUND. Once the row is gone the file is
 * unreachable, so a storage failure is logged (retention deletes stray result files later).
 */
export async function deleteResult(deps: GalleryDeps, userId: string, id: string): Promise<void> {
  const deleted = await deleteTryOnOfUser(deps.db, id, userId);
  if (!deleted) throw new AppError('NOT_FOUND');
  // A preview's photos go at once too (retention deletes them within 30 minutes otherwise).
  const keys = [...(deleted.resultName ? [`results/${deleted.resultName}`] : []), ...deleted.previewPhotos];
  for (const key of keys) {
    try {
      await deps.storage.delete(key);
    } catch (err) {
      deps.log.warn({ err, tryonId: id }, 'deleted try-on: a stored file could not be deleted (retention will)');
    }
  }
}

/** Shares a kept result of the user's; the token in force (the same on a second call). */
export async function shareResult(
  deps: Pick<GalleryDeps, 'db' | 'clock'>,
  userId: string,
  id: string,
): Promise<string> {
  const token = await shareTryOn(deps.db, id, userId, newShareToken(), deps.clock());
  if (!token) throw new AppError('NOT_FOUND');
  return token;
}

export async function unshareResult(deps: Pick<GalleryDeps, 'db'>, userId: string, id: string): Promise<void> {
  if (!(await unshareTryOn(deps.db, id, userId))) throw new AppError('NOT_FOUND');
}

/** A shared result still kept, or undefined (unknown token, sharing stopped, expired). */
export async function findShared(
  deps: Pick<GalleryDeps, 'db' | 'clock'>,
  token: string,
): Promise<TryOnRow | undefined> {
  return findSharedResult(deps.db, token, deps.clock());
}

/** A shared result's image, or null when it is no longer shared or its file is gone. */
export async function sharedImage(
  deps: Pick<GalleryDeps, 'db' | 'clock' | 'storage'>,
  token: string,
): Promise<{ row: TryOnRow; object: StoredStream } | null> {
  const row = await findShared(deps, token);
  if (!row?.result_name) return null;
  const object = await deps.storage.open(`results/${row.result_name}`);
  return object ? { row, object } : null;
}
