/**
 * Accounts: email sign-in (a 6-digit code or a magic link, mailed), merging an anonymous user
 * into the account it signs in to, and deleting a person's data. The session is the only key to
 * an account; these functions decide which user a session belongs to, the routes set the cookie.
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  MAGIC_LINK_PATH,
  MESSAGES,
  SIGN_IN_CODE_MAX_ATTEMPTS,
  SIGN_IN_CODE_TTL_MINUTES,
  type Locale,
} from '@aidressup/contract';
import type { Config } from '../config.js';
import type { Database, UserRow } from '../db/schema.js';
import type { Storage } from '../storage/storage.js';
import type { Mailer } from '../mail/mailer.js';
import { signInMail } from '../mail/sign-in-mail.js';
import { AppError } from '../errors.js';
import { forfeitCredits, mergeUserInto } from '../ledger/ledger.js';
import { cancelBillablePlan } from './plan-cancellation.js';
import {
  consumeEmailCode,
  countEmailCodesSince,
  findEmailCodeByToken,
  insertEmailCode,
  latestEmailCode,
  recordWrongAttempt,
} from '../repositories/email-codes.js';
import { moveUserSessions } from '../repositories/sessions.js';
import { removePersonalDataFromAudit } from '../repositories/audit.js';
import { removePersonalDataFromReports } from '../repositories/reports.js';
import {
  createUser,
  deleteUserData,
  deviceTrialsUsed,
  findUserByEmail,
  findUserById,
  setUserEmail,
} from '../repositories/users.js';

type Db = Kysely<Database>;

const CODE_TTL_MS = SIGN_IN_CODE_TTL_MINUTES * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

export interface AccountDeps {
  db: Db;
  config: Config;
  clock: () => Date;
  secret: string;
  log: FastifyBaseLogger;
}

/** A code is stored as an HMAC with the server secret: a leaked table does not give the codes away. */
function codeHash(secret: string, email: string, code: string): string {
  return createHmac('sha256', secret).update(`sign-in-code:${email}:${code}`).digest('base64url');
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Mails a sign-in code and link to an address, known or not (the answer never tells which), in
 * the page's language (English when not given). At most `emailCodesPerAddressPerHour` mails per
 * address per hour.
 */
export async function startEmailSignIn(
  deps: AccountDeps & { mailer: Mailer },
  input: { email: string; linkOrigin: string; locale?: Locale },
): Promise<void> {
  const now = deps.clock();
  const sent = await countEmailCodesSince(deps.db, input.email, new Date(now.getTime() - HOUR_MS));
  if (sent >= deps.config.rateLimits.emailCodesPerAddressPerHour) throw new AppError('RATE_LIMITED');
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const token = randomBytes(32).toString('base64url');
  await insertEmailCode(deps.db, {
    email: input.email,
    codeHash: codeHash(deps.secret, input.email, code),
    tokenHash: tokenHash(token),
    now,
    ttlMs: CODE_TTL_MS,
  });
  const link = `${input.linkOrigin}${MAGIC_LINK_PATH}#email=${encodeURIComponent(input.email)}&token=${token}`;
  try {
    await deps.mailer.send(signInMail({ to: input.email, code, link, locale: input.locale }));
  } catch (err) {
    deps.log.error({ err }, 'the sign-in mail could not be sent');
    throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.mailNotSent);
  }
}

/** Checks a code or a link's token; consumes it, or throws the specific 4xx. */
async function checkCode(deps: AccountDeps, input: { email: string; code?: string; token?: string }): Promise<void> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  if (input.token !== undefined) {
    const row = await findEmailCodeByToken(deps.db, tokenHash(input.token));
    if (!row || row.email !== input.email) throw new AppError('INVALID_CODE', MESSAGES.invalidLink);
    if (row.used_at !== null || row.expires_at <= nowIso) throw new AppError('CODE_EXPIRED');
    if (row.attempts >= SIGN_IN_CODE_MAX_ATTEMPTS) throw new AppError('CODE_LOCKED');
    if (!(await consumeEmailCode(deps.db, row.id, now, SIGN_IN_CODE_MAX_ATTEMPTS))) throw new AppError('CODE_EXPIRED');
    return;
  }
  const row = await latestEmailCode(deps.db, input.email);
  if (!row || row.used_at !== null || row.expires_at <= nowIso) throw new AppError('CODE_EXPIRED');
  if (row.attempts >= SIGN_IN_CODE_MAX_ATTEMPTS) throw new AppError('CODE_LOCKED');
  if (!sameHash(codeHash(deps.secret, input.email, input.code ?? ''), row.code_hash)) {
    const attempts = await recordWrongAttempt(deps.db, row.id, SIGN_IN_CODE_MAX_ATTEMPTS);
    if (attempts === null || attempts >= SIGN_IN_CODE_MAX_ATTEMPTS) throw new AppError('CODE_LOCKED');
    throw new AppError('INVALID_CODE');
  }
  if (!(await consumeEmailCode(deps.db, row.id, now, SIGN_IN_CODE_MAX_ATTEMPTS))) throw new AppError('CODE_EXPIRED');
}

export interface VerifyResult {
  user: UserRow;
  /** The anonymous user's results and credits joined an existing account. */
  merged: boolean;
}

/**
 * Signs a session in by email. With no account for the address, the session's user becomes that
 * account, keeping its credits, trials and results. With one, the session moves to it, and an
 * anonymous session user's results and unspent credits move into it (once, in one transaction).
 */
export async function verifyEmailSignIn(
  deps: AccountDeps,
  input: { email: string; code?: string; token?: string; currentUserId: string | null },
): Promise<VerifyResult> {
  await checkCode(deps, input);
  const now = deps.clock();
  const current = input.currentUserId ? await findUserById(deps.db, input.currentUserId) : undefined;
  const live = current && current.deleted_at === null && current.merged_into === null ? current : undefined;

  for (let attempt = 0; attempt < 3; attempt++) {
    const account = await findUserByEmail(deps.db, input.email);
    // A blocked account cannot be signed in to (the operator console).
    if (account?.blocked_at) throw new AppError('ACCOUNT_BLOCKED');
    if (account) {
      if (live && live.id !== account.id && live.email === null) {
        const merge = await mergeUserInto(deps.db, { fromUserId: live.id, toUserId: account.id, now });
        if (merge.merged) await moveUserSessions(deps.db, live.id, account.id);
        deps.log.info(
          { merged: merge.merged, credits: merge.credits, tryons: merge.tryons },
          'email sign-in into an existing account',
        );
        return { user: account, merged: merge.merged };
      }
      return { user: account, merged: false };
    }
    if (live && live.email === null) {
      if (await setUserEmail(deps.db, live.id, input.email)) {
        const user = await findUserById(deps.db, live.id);
        if (user) return { user, merged: false };
      }
      continue; // another session took this address a moment ago: sign in to that account
    }
    // No anonymous user to give the address to (no session, or signed in to another address):
    // a new account, whose free trials are its device's.
    const deviceUsed = live?.device_id ? await deviceTrialsUsed(deps.db, live.device_id) : deps.config.freeTrialsLimit;
    const user = await createUser(deps.db, {
      deviceId: live?.device_id ?? null,
      deviceInfo: live ? JSON.parse(live.device_info) : {},
      signupIpHash: null,
      freeTrialsUsed: Math.min(deps.config.freeTrialsLimit, deviceUsed),
      freeTrialsWithheld: null,
      now,
    });
    if (await setUserEmail(deps.db, user.id, input.email))
      return { user: { ...user, email: input.email }, merged: false };
  }
  throw new Error('email sign-in did not settle after three attempts');
}

/**
 * Deletes everything that is the person's: photos and results (files and rows), email, device
 * info and sessions; unspent credits are forfeited. The transaction records stay, without
 * personal data. Result files are deleted after the rows, so a failure leaves no reachable file.
 *
 * A plan that would bill the person again is cancelled first (at Paddle, and recorded on the
 * user row); when that fails, nothing is deleted (SERVICE_UNAVAILABLE, `MESSAGES.planNotCanceled`)
 * and the person can try again. A retry after a later failure finds the plan cancelled already.
 */
export async function deleteAccount(deps: AccountDeps & { storage: Storage }, userId: string): Promise<void> {
  await cancelBillablePlan(deps, userId);
  const now = deps.clock();
  const names = await deps.db.transaction().execute(async (trx) => {
    await forfeitCredits(trx, userId, now);
    // Audit rows and reports about the person stay, without their personal data.
    await removePersonalDataFromAudit(trx, userId);
    await removePersonalDataFromReports(trx, userId);
    return deleteUserData(trx, userId, now);
  });
  for (const name of names) {
    try {
      await deps.storage.delete(`results/${name}`);
    } catch (err) {
      deps.log.error(
        { err },
        'a deleted account’s result file could not be deleted (no row points to it: it is unreachable)',
      );
    }
  }
}
