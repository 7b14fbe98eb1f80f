/**
 * Merchants of the "Try it on" widget (docs/embed.md): operators create them (a publishable key,
 * a secret key shown once and stored hashed, allowed origins, caps) and move their credits; the
 * merchant reads its usage with the secret key; a shopper's frame opens a short-lived embed
 * session bound to one allowed origin. A merchant's credits live in a ledger account of its own
 * (a bare user that never signs in), so every credit movement is the ledger's.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  EMBED_SESSION_MINUTES,
  EMBED_TOKEN_PATTERN,
  MERCHANT_DAILY_LIMIT_DEFAULT,
  PUBLISHABLE_KEY_PATTERN,
  SECRET_KEY_PATTERN,
  SHOPPER_DAILY_LIMIT_DEFAULT,
  isAllowedOrigin,
  type AdminMerchantUpdateRequest,
  type Merchant,
  type MerchantSessionSummary,
  type MerchantUsageDay,
  type ProductPhotoRefusal,
} from '@aidressup/contract';
import type { Database, EmbedSessionRow, MerchantRow } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';
import { AppError } from '../errors.js';
import type { LogSink } from '../logging.js';
import { adjustCredits, balance, utcDay } from '../ledger/ledger.js';
import { appendAudit } from '../repositories/audit.js';
import {
  findEmbedSession,
  findMerchant,
  findMerchantByPublishableKey,
  findMerchantBySecretHash,
  insertEmbedSession,
  insertMerchant,
  listMerchants,
  merchantSessions,
  merchantUsageByDay,
  updateMerchant,
} from '../repositories/merchants.js';
import { createUser } from '../repositories/users.js';
import { hashIp } from './users.js';
import { refusedProductPhotos } from './product-photo-refusals.js';
import type { Operator } from './admin/operators.js';

export interface MerchantDeps {
  db: Kysely<Database>;
  clock: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Shopper sessions listed on a merchant's page. */
const SESSIONS_LISTED = 50;

const newKey = (prefix: 'pk' | 'sk' | 'es', bytes: number) => `${prefix}_${randomBytes(bytes).toString('base64url')}`;
/** SHA-256 of a secret key or an embed token (only the hash is stored). */
const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** Every origin stored for a merchant, valid or not (only the start-up check needs the bad ones). */
function storedOriginsOf(row: Pick<MerchantRow, 'allowed_origins'>): unknown[] {
  try {
    const parsed: unknown = JSON.parse(row.allowed_origins);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [row.allowed_origins];
  }
}

/**
 * A merchant's allowed origins: only those `isAllowedOrigin` takes. A row written before the rule
 * (or by hand) may hold others (`https://*`, a `;`): they are dropped here, on every read, so they
 * reach neither the frame page's `frame-ancestors` nor an embed session.
 */
export function allowedOriginsOf(row: Pick<MerchantRow, 'allowed_origins'>): string[] {
  return storedOriginsOf(row).filter((o): o is string => typeof o === 'string' && isAllowedOrigin(o));
}

/**
 * At start: each merchant whose stored origins include some `isAllowedOrigin` refuses gets a log
 * line naming them (a warning; an error when none is left, since its widget then works nowhere
 * until an operator sets its origins). The server starts and the other merchants keep working;
 * the bad origins are never used (`allowedOriginsOf`).
 */
export async function reportBadMerchantOrigins(
  db: Kysely<Database>,
  log: LogSink & { error(obj: object, msg?: string): void },
): Promise<number> {
  let bad = 0;
  for (const row of await listMerchants(db)) {
    const refused = storedOriginsOf(row).filter((o) => typeof o !== 'string' || !isAllowedOrigin(o));
    if (refused.length === 0) continue;
    bad++;
    const kept = allowedOriginsOf(row);
    const line = { merchant: { id: row.id, name: row.name }, refused, kept };
    if (kept.length > 0)
      log.warn(
        line,
        'merchant allowed origins refused (not https://host[:port]): dropped; the widget works on the others',
      );
    else
      log.error(
        line,
        'merchant has no valid allowed origin: every origin refused (not https://host[:port]); its widget works nowhere until an operator sets them',
      );
  }
  return bad;
}

async function toMerchant(deps: MerchantDeps, row: MerchantRow): Promise<Merchant> {
  return {
    id: row.id,
    name: row.name,
    publishableKey: row.publishable_key,
    allowedOrigins: allowedOriginsOf(row),
    billing: row.billing,
    credits: await balance(deps.db, row.user_id, deps.clock()),
    dailyLimit: row.daily_limit,
    shopperDailyLimit: row.shopper_daily_limit,
    outOfCreditsSince: row.out_of_credits_at,
    refusedNoCredits: row.refused_no_credits,
    createdAt: row.created_at,
    keysRotatedAt: row.keys_rotated_at,
  };
}

async function merchantOrNotFound(db: Kysely<Database>, id: string): Promise<MerchantRow> {
  const row = await findMerchant(db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** Creates a merchant with its ledger account and, when asked, its first credits (audited). */
export async function createMerchant(
  deps: MerchantDeps,
  operator: Operator,
  input: {
    name: string;
    allowedOrigins: string[];
    credits: number;
    dailyLimit?: number | undefined;
    shopperDailyLimit?: number | undefined;
  },
): Promise<Merchant & { secretKey: string }> {
  const now = deps.clock();
  const secretKey = newKey('sk', 32);
  const id = newId();
  await deps.db.transaction().execute(async (trx) => {
    const account = await createUser(trx, {
      deviceId: null,
      deviceInfo: { merchant: id },
      signupIpHash: null,
      freeTrialsUsed: 0,
      freeTrialsWithheld: null,
      now,
    });
    const row: MerchantRow = {
      id,
      name: input.name,
      user_id: account.id,
      publishable_key: newKey('pk', 24),
      secret_key_hash: hashSecret(secretKey),
      allowed_origins: JSON.stringify([...new Set(input.allowedOrigins)]),
      billing: 'merchant',
      daily_limit: input.dailyLimit ?? MERCHANT_DAILY_LIMIT_DEFAULT,
      shopper_daily_limit: input.shopperDailyLimit ?? SHOPPER_DAILY_LIMIT_DEFAULT,
      out_of_credits_at: null,
      refused_no_credits: 0,
      created_at: iso(now),
      keys_rotated_at: null,
    };
    await insertMerchant(trx, row);
    if (input.credits > 0) {
      await adjustCredits(trx, {
        userId: account.id,
        amount: input.credits,
        reason: 'starting credits',
        actorId: operator.id,
        now,
      });
    }
    await appendAudit(trx, {
      actorId: operator.id,
      actorEmail: operator.email,
      action: 'merchant.create',
      targetType: 'merchant',
      targetId: id,
      targetUserId: null,
      reason: null,
      after: { name: row.name, allowedOrigins: allowedOriginsOf(row), credits: input.credits },
      now,
    });
  });
  return { ...(await toMerchant(deps, await merchantOrNotFound(deps.db, id))), secretKey };
}

export async function listAllMerchants(deps: MerchantDeps): Promise<Merchant[]> {
  const rows = await listMerchants(deps.db);
  return Promise.all(rows.map((row) => toMerchant(deps, row)));
}

/** Usage per UTC day, the last `days` days (today included), newest first. */
async function usageOf(deps: MerchantDeps, merchantId: string, days: number): Promise<MerchantUsageDay[]> {
  const fromDay = utcDay(new Date(deps.clock().getTime() - (days - 1) * DAY_MS));
  return merchantUsageByDay(deps.db, merchantId, fromDay);
}

export async function merchantDetail(
  deps: MerchantDeps,
  id: string,
  days: number,
): Promise<{
  merchant: Merchant;
  usage: MerchantUsageDay[];
  refusedProductPhotos: ProductPhotoRefusal[];
  sessions: MerchantSessionSummary[];
}> {
  const row = await merchantOrNotFound(deps.db, id);
  return {
    merchant: await toMerchant(deps, row),
    usage: await usageOf(deps, id, days),
    refusedProductPhotos: await refusedProductPhotos(deps, id, days),
    sessions: await merchantSessions(deps.db, id, SESSIONS_LISTED),
  };
}

/** Changes a merchant's name, origins or caps (audited with the values before and after). */
export async function changeMerchant(
  deps: MerchantDeps,
  operator: Operator,
  id: string,
  input: AdminMerchantUpdateRequest,
): Promise<Merchant> {
  const now = deps.clock();
  await deps.db.transaction().execute(async (trx) => {
    const row = await merchantOrNotFound(trx, id);
    const set = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.allowedOrigins !== undefined
        ? { allowed_origins: JSON.stringify([...new Set(input.allowedOrigins)]) }
        : {}),
      ...(input.dailyLimit !== undefined ? { daily_limit: input.dailyLimit } : {}),
      ...(input.shopperDailyLimit !== undefined ? { shopper_daily_limit: input.shopperDailyLimit } : {}),
    };
    await updateMerchant(trx, id, set);
    await appendAudit(trx, {
      actorId: operator.id,
      actorEmail: operator.email,
      action: 'merchant.update',
      targetType: 'merchant',
      targetId: id,
      targetUserId: null,
      reason: input.reason,
      before: {
        name: row.name,
        // As stored, refused ones included: the audit log says what the change replaced.
        allowedOrigins: storedOriginsOf(row),
        dailyLimit: row.daily_limit,
        shopperDailyLimit: row.shopper_daily_limit,
      },
      after: set,
      now,
    });
  });
  return toMerchant(deps, await merchantOrNotFound(deps.db, id));
}

/** Adds credits to a merchant, or takes them back (never below zero): the ledger, audited. */
export async function adjustMerchantCredits(
  deps: MerchantDeps,
  operator: Operator,
  input: { merchantId: string; amount: number; reason: string },
): Promise<Merchant> {
  const now = deps.clock();
  await deps.db.transaction().execute(async (trx) => {
    const row = await merchantOrNotFound(trx, input.merchantId);
    const result = await adjustCredits(trx, {
      userId: row.user_id,
      amount: input.amount,
      reason: input.reason,
      actorId: operator.id,
      now,
    });
    // Credits arrived: the shop is no longer out of them.
    if (result.after > 0 && row.out_of_credits_at !== null)
      await updateMerchant(trx, row.id, { out_of_credits_at: null });
    await appendAudit(trx, {
      actorId: operator.id,
      actorEmail: operator.email,
      action: input.amount > 0 ? 'merchant.credits.add' : 'merchant.credits.remove',
      targetType: 'merchant',
      targetId: row.id,
      targetUserId: null,
      reason: input.reason,
      before: { credits: result.before },
      after: { credits: result.after, requested: input.amount, changed: result.changed },
      now,
    });
  });
  return toMerchant(deps, await merchantOrNotFound(deps.db, input.merchantId));
}

/**
 * New keys: the secret one (the old one stops at once), the publishable one (the shop's snippet
 * must change; open sessions end with their tokens' short life), or both. Audited.
 */
export async function rotateMerchantKeys(
  deps: MerchantDeps,
  operator: Operator,
  input: { merchantId: string; key: 'secret' | 'publishable' | 'both'; reason?: string | undefined },
): Promise<Merchant & { secretKey: string | null }> {
  const now = deps.clock();
  const secretKey = input.key === 'publishable' ? null : newKey('sk', 32);
  await deps.db.transaction().execute(async (trx) => {
    const row = await merchantOrNotFound(trx, input.merchantId);
    const publishable = input.key === 'secret' ? row.publishable_key : newKey('pk', 24);
    await updateMerchant(trx, row.id, {
      publishable_key: publishable,
      ...(secretKey ? { secret_key_hash: hashSecret(secretKey) } : {}),
      keys_rotated_at: iso(now),
    });
    await appendAudit(trx, {
      actorId: operator.id,
      actorEmail: operator.email,
      action: 'merchant.keys.rotate',
      targetType: 'merchant',
      targetId: row.id,
      targetUserId: null,
      reason: input.reason ?? null,
      before: { publishableKey: row.publishable_key },
      after: { publishableKey: publishable, secretKeyReplaced: secretKey !== null },
      now,
    });
  });
  return { ...(await toMerchant(deps, await merchantOrNotFound(deps.db, input.merchantId))), secretKey };
}

/** The merchant a secret key (from `Authorization: Bearer sk_…`) belongs to; else 401 UNAUTHORIZED. */
export async function merchantBySecretKey(deps: MerchantDeps, secretKey: string | undefined): Promise<MerchantRow> {
  if (!secretKey || !SECRET_KEY_PATTERN.test(secretKey)) throw new AppError('UNAUTHORIZED');
  const row = await findMerchantBySecretHash(deps.db, hashSecret(secretKey));
  if (!row) throw new AppError('UNAUTHORIZED');
  return row;
}

export async function merchantUsage(
  deps: MerchantDeps,
  row: MerchantRow,
  days: number,
): Promise<{
  merchant: { id: string; name: string; credits: number };
  usage: MerchantUsageDay[];
  refusedProductPhotos: ProductPhotoRefusal[];
}> {
  return {
    merchant: { id: row.id, name: row.name, credits: await balance(deps.db, row.user_id, deps.clock()) },
    usage: await usageOf(deps, row.id, days),
    refusedProductPhotos: await refusedProductPhotos(deps, row.id, days),
  };
}

/** The merchant of a publishable key (undefined: missing, malformed or unknown). */
export async function merchantByPublishableKey(
  db: Kysely<Database>,
  key: string | undefined,
): Promise<MerchantRow | undefined> {
  if (!key || !PUBLISHABLE_KEY_PATTERN.test(key)) return undefined;
  return findMerchantByPublishableKey(db, key);
}

/**
 * Opens a shopper's embed session for the merchant of `key`, bound to one of its allowed origins:
 * the request's Origin when the shop's page calls directly, or, from our own frame (Origin: ours),
 * the shop page's origin the frame learnt from the page's message. Anything else is refused.
 */
export async function openEmbedSession(
  deps: MerchantDeps & { sessionSecret: string },
  input: {
    key: string;
    requestOrigin: string | undefined;
    ownOrigins: readonly string[];
    pageOrigin?: string | undefined;
    ip: string;
  },
): Promise<{ token: string; expiresAt: string; merchantName: string }> {
  const merchant = await merchantByPublishableKey(deps.db, input.key);
  if (!merchant) throw new AppError('EMBED_KEY_INVALID');
  const allowed = allowedOriginsOf(merchant);
  let origin: string | undefined;
  if (input.requestOrigin !== undefined && allowed.includes(input.requestOrigin)) origin = input.requestOrigin;
  else if (input.requestOrigin !== undefined && input.ownOrigins.includes(input.requestOrigin)) {
    if (input.pageOrigin !== undefined && allowed.includes(input.pageOrigin)) origin = input.pageOrigin;
  }
  if (origin === undefined) throw new AppError('ORIGIN_NOT_ALLOWED');
  const now = deps.clock();
  const token = newKey('es', 32);
  const row: EmbedSessionRow = {
    id: newId(),
    merchant_id: merchant.id,
    token_hash: hashSecret(token),
    origin,
    shopper_hash: hashIp(input.ip, deps.sessionSecret),
    created_at: iso(now),
    expires_at: iso(new Date(now.getTime() + EMBED_SESSION_MINUTES * 60_000)),
  };
  await insertEmbedSession(deps.db, row);
  return { token, expiresAt: row.expires_at, merchantName: merchant.name };
}

export interface ResolvedEmbedSession {
  session: EmbedSessionRow;
  merchant: MerchantRow;
}

/** The live embed session of a bearer token, with its merchant; else 401 EMBED_SESSION_INVALID. */
export async function embedSessionOf(deps: MerchantDeps, token: string | undefined): Promise<ResolvedEmbedSession> {
  if (!token || !EMBED_TOKEN_PATTERN.test(token)) throw new AppError('EMBED_SESSION_INVALID');
  const session = await findEmbedSession(deps.db, hashSecret(token), iso(deps.clock()));
  if (!session) throw new AppError('EMBED_SESSION_INVALID');
  const merchant = await findMerchant(deps.db, session.merchant_id);
  if (!merchant) throw new AppError('EMBED_SESSION_INVALID');
  return { session, merchant };
}
