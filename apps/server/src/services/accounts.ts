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
  MAX_KEPT_PHOTOS,
  MESSAGES,
  maskEmail,
  SIGN_IN_CODE_MAX_ATTEMPTS,
  SIGN_IN_CODE_TTL_MINUTES,
  type Locale,
} from '@aidressup/contract';
import type { Config } from '../config.js';
import type { Database, EmailCodeRow, UserRow } from '../db/schema.js';
import type { Storage } from '../storage/storage.js';
import type { Mailer } from '../mail/mailer.js';
import { signInMail } from '../mail/sign-in-mail.js';
import { AppError } from '../errors.js';
import { flushDeletedData } from '../db/database.js';
import { forfeitCredits, mergeUserInto } from '../ledger/ledger.js';
import { cancelBillablePlan } from './plan-cancellation.js';
import {
  consumeEmailCode,
  countEmailCodesSince,
  countFailuresByClient,
  countStrangerFailures,
  endEmailCodes,
  findEmailCodeByToken,
  insertEmailCode,
  liveEmailCodes,
  recordSignInFailure,
  takeCodeTry,
} from '../repositories/email-codes.js';
import { hashIp } from './users.js';
import { deleteUserSessions } from '../repositories/sessions.js';
import { removePersonalDataFromAudit } from '../repositories/audit.js';
import { removePersonalDataFromReports } from '../repositories/reports.js';
import { previewPhotoKeysOfUser } from '../repositories/tryons.js';
import { deletePhotosOfUser, movePhotosToAccount } from '../repositories/kept-photos.js';
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
/**
 * Mails to one mailbox per hour from all client addresses together, as a multiple of the
 * allowance of one client address: someone elsewhere cannot use up a shopper's allowance, and
 * many addresses together still cannot flood an inbox.
 */
const MAILBOX_ALLOWANCE_FACTOR = 4;

/** The mailbox an address delivers to, for mail allowances: lower case, its `+tag` removed. */
function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return email.toLowerCase();
  const local = email.slice(0, at);
  const plus = local.indexOf('+');
  return `${plus > 0 ? local.slice(0, plus) : local}@${email.slice(at + 1)}`.toLowerCase();
}

export interface AccountDeps {
  db: Db;
  config: Config;
  clock: () => Date;
  secret: string;
  log: FastifyBaseLogger;
  /** Where kept person photos' files are deleted (those a merge leaves past the limit). */
  storage?: Storage;
}

/** Deletes stored files no row points to any more; a failure is logged (they are unreachable). */
async function deleteFiles(deps: Pick<AccountDeps, 'log'> & { storage?: Storage | undefined }, keys: string[]) {
  for (const key of keys) {
    try {
      await deps.storage?.delete(key);
    } catch (err) {
      deps.log.error(
        { err },
        'a deleted file could not be removed from storage (no row points to it: it is unreachable)',
      );
    }
  }
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
 * the page's language (English when not given). A mailbox (the address without its `+tag`) gets
 * at most `emailCodesPerAddressPerHour` mails an hour asked for from one client address, and
 * `MAILBOX_ALLOWANCE_FACTOR` times that from all of them together.
 */
export async function startEmailSignIn(
  deps: AccountDeps & { mailer: Mailer },
  input: {
    email: string;
    linkOrigin: string;
    locale?: Locale;
    clientAddress: string;
    /** The asking browser's nonce hash (`http/sign-in-binding.ts`): the code signs in there without asking. */
    bindingHash: string;
  },
): Promise<void> {
  const now = deps.clock();
  const mailbox = mailboxOf(input.email);
  const requester = hashIp(input.clientAddress, deps.secret);
  const since = new Date(now.getTime() - HOUR_MS);
  const allowance = deps.config.rateLimits.emailCodesPerAddressPerHour;
  if ((await countEmailCodesSince(deps.db, { mailbox, since, requester })) >= allowance)
    throw new AppError('RATE_LIMITED');
  if ((await countEmailCodesSince(deps.db, { mailbox, since })) >= allowance * MAILBOX_ALLOWANCE_FACTOR)
    throw new AppError('RATE_LIMITED');
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const token = randomBytes(32).toString('base64url');
  await insertEmailCode(deps.db, {
    email: input.email,
    mailbox,
    requester,
    codeHash: codeHash(deps.secret, input.email, code),
    tokenHash: tokenHash(token),
    bindingHash: input.bindingHash,
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

/**
 * Checks a code or a link's token; consumes it (and every other code of the address), or throws
 * the specific 4xx.
 *
 * Wrong codes count three ways, so that no one can lock a stranger out:
 * - per code: 5 tries from the client address that asked for it, and 5 from everywhere else
 *   together. Someone guessing elsewhere never uses up the tries of the shopper who asked.
 * - per email address: past `signInFailuresPerAddressPerHour` wrong codes in an hour from client
 *   addresses trying codes they did not ask for, only a code one's own client address asked for
 *   can be tried.
 * - per client address: past `signInFailuresPerIpPerHour` wrong codes in an hour, any address,
 *   the client address is refused (RATE_LIMITED).
 * A try is taken before the code is compared (a guarded update), so concurrent guesses never
 * exceed a code's tries. The link's token (256 bits) cannot be guessed and counts no tries.
 * Returns the matching code, not yet used (`verifyEmailSignIn` decides whether it signs in).
 */
async function checkCode(
  deps: AccountDeps,
  input: { email: string; code?: string; token?: string; clientAddress: string },
): Promise<EmailCodeRow> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  if (input.token !== undefined) {
    const row = await findEmailCodeByToken(deps.db, tokenHash(input.token));
    if (!row || row.email !== input.email) throw new AppError('INVALID_CODE', MESSAGES.invalidLink);
    if (row.used_at !== null || row.expires_at <= nowIso) throw new AppError('CODE_EXPIRED');
    return row;
  }
  const limits = deps.config.rateLimits;
  const client = hashIp(input.clientAddress, deps.secret);
  const since = new Date(now.getTime() - HOUR_MS);
  if ((await countFailuresByClient(deps.db, client, since)) >= limits.signInFailuresPerIpPerHour)
    throw new AppError('RATE_LIMITED');
  const codes = await liveEmailCodes(deps.db, input.email, now);
  if (codes.length === 0) throw new AppError('CODE_EXPIRED');
  const strangersRefused =
    (await countStrangerFailures(deps.db, input.email, since)) >= limits.signInFailuresPerAddressPerHour;
  const tried: { row: (typeof codes)[number]; own: boolean; triesBefore: number }[] = [];
  for (const row of codes) {
    const own = row.requester === client;
    if (!own && strangersRefused) continue;
    if (await takeCodeTry(deps.db, { id: row.id, byRequester: own, maxTries: SIGN_IN_CODE_MAX_ATTEMPTS }))
      tried.push({ row, own, triesBefore: own ? row.attempts : row.stranger_attempts });
  }
  if (tried.length === 0) {
    // No try left: the code was used meanwhile (by a simultaneous request), or it is locked.
    const stillLive = await liveEmailCodes(deps.db, input.email, now);
    throw new AppError(stillLive.length === 0 ? 'CODE_EXPIRED' : 'CODE_LOCKED');
  }
  const expected = codeHash(deps.secret, input.email, input.code ?? '');
  const hit = tried.find((t) => sameHash(expected, t.row.code_hash));
  if (hit) return hit.row;
  await recordSignInFailure(deps.db, { email: input.email, client, stranger: tried.some((t) => !t.own), now });
  const triesLeft = tried.some((t) => t.triesBefore + 1 < SIGN_IN_CODE_MAX_ATTEMPTS);
  throw new AppError(triesLeft ? 'INVALID_CODE' : 'CODE_LOCKED');
}

export interface VerifyResult {
  user: UserRow;
  /** The anonymous user joined an existing account. */
  merged: boolean;
  /** What joined the account with it: unspent credits and results (none unless merged). */
  moved: { credits: number; results: number };
}

const NOTHING_MOVED = { credits: 0, results: 0 } as const;

/**
 * Signs a session in by email. With no account for the address, the session's user becomes that
 * account, keeping its credits, trials and results, and its other sessions end. With one, the session moves to it, and an
 * anonymous session user's results and unspent credits move into it (once, in one transaction);
 * the anonymous user's other sessions end. The route gives the signing-in browser a new session.
 *
 * Only in the browser that asked for the code (`binding`, `http/sign-in-binding.ts`). Anywhere
 * else the code or link first answers CONFIRM_OTHER_BROWSER (the address masked) and leaves the
 * code unused; with `confirm` it signs that browser in to the account, and that browser's
 * anonymous user (photos, results, credits) stays where it is: a link sent by someone else must
 * never carry a stranger's things into the sender's account.
 */
export async function verifyEmailSignIn(
  deps: AccountDeps,
  input: {
    email: string;
    code?: string;
    token?: string;
    currentUserId: string | null;
    clientAddress: string;
    /** The hash of this browser's sign-in nonce, or null when it holds none. */
    binding: string | null;
    /** The shopper confirmed signing in here though another browser asked for the code. */
    confirm?: boolean;
  },
): Promise<VerifyResult> {
  const code = await checkCode(deps, input);
  const bound = code.binding_hash !== null && input.binding !== null && sameHash(code.binding_hash, input.binding);
  if (!bound && !input.confirm)
    throw new AppError('CONFIRM_OTHER_BROWSER', undefined, { email: maskEmail(input.email) });
  const now = deps.clock();
  if (!(await consumeEmailCode(deps.db, code.id, now))) throw new AppError('CODE_EXPIRED');
  await endEmailCodes(deps.db, input.email, now);
  const current = input.currentUserId ? await findUserById(deps.db, input.currentUserId) : undefined;
  const signedIn = current && current.deleted_at === null && current.merged_into === null ? current : undefined;
  // Only the asking browser's own user may join the account or become it.
  const live = bound ? signedIn : undefined;

  for (let attempt = 0; attempt < 3; attempt++) {
    const account = await findUserByEmail(deps.db, input.email);
    // A blocked account cannot be signed in to (the operator console).
    if (account?.blocked_at) throw new AppError('ACCOUNT_BLOCKED');
    if (account) {
      if (live && live.id !== account.id && live.email === null) {
        // Kept person photos move with the merge, in its transaction; past the limit the least
        // recently used go.
        const { merge, dropped } = await deps.db.transaction().execute(async (trx) => {
          const merge = await mergeUserInto(trx, { fromUserId: live.id, toUserId: account.id, now });
          const photos = merge.merged
            ? await movePhotosToAccount(trx, live.id, account.id, MAX_KEPT_PHOTOS)
            : { moved: 0, files: [] };
          return { merge, dropped: photos.files };
        });
        await deleteFiles(deps, dropped);
        // The anonymous user's other sessions end: they never move into the account. A cookie
        // planted in the shopper's browser must not become a way into the shopper's account.
        if (merge.merged) await deleteUserSessions(deps.db, live.id);
        deps.log.info(
          { merged: merge.merged, credits: merge.credits, tryons: merge.tryons },
          'email sign-in into an existing account',
        );
        return { user: account, merged: merge.merged, moved: { credits: merge.credits, results: merge.results } };
      }
      return { user: account, merged: false, moved: NOTHING_MOVED };
    }
    if (live && live.email === null) {
      if (await setUserEmail(deps.db, live.id, input.email)) {
        // The anonymous user is now an account: sessions it had besides this browser's end
        // (the route gives this browser a new one), so a planted cookie never becomes a key to it.
        await deleteUserSessions(deps.db, live.id);
        const user = await findUserById(deps.db, live.id);
        if (user) return { user, merged: false, moved: NOTHING_MOVED };
      }
      continue; // another session took this address a moment ago: sign in to that account
    }
    // No anonymous user to give the address to (no session, or signed in to another address):
    // a new account, whose free trials are its device's.
    const device = signedIn?.device_id ?? null;
    const deviceUsed = device ? await deviceTrialsUsed(deps.db, device) : deps.config.freeTrialsLimit;
    const user = await createUser(deps.db, {
      deviceId: device,
      deviceInfo: signedIn ? JSON.parse(signedIn.device_info) : {},
      signupIpHash: null,
      freeTrialsUsed: Math.min(deps.config.freeTrialsLimit, deviceUsed),
      freeTrialsWithheld: null,
      now,
    });
    if (await setUserEmail(deps.db, user.id, input.email))
      return { user: { ...user, email: input.email }, merged: false, moved: NOTHING_MOVED };
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
  // Previews' photos: none are added while the account is being deleted (a try-on still
  // running may add some; retention deletes those within 30 minutes).
  const previewPhotos = await previewPhotoKeysOfUser(deps.db, userId);
  const { names, photoFiles } = await deps.db.transaction().execute(async (trx) => {
    await forfeitCredits(trx, userId, now);
    // Audit rows and reports about the person stay, without their personal data.
    await removePersonalDataFromAudit(trx, userId);
    await removePersonalDataFromReports(trx, userId);
    // Kept person photos (My photos): rows now, sealed files after.
    const photoFiles = await deletePhotosOfUser(trx, userId);
    return { names: await deleteUserData(trx, userId, now), photoFiles };
  });
  try {
    await flushDeletedData(deps.db);
  } catch (err) {
    deps.log.warn(
      { err },
      'the database could not be checkpointed after an account deletion (the next checkpoint will)',
    );
  }
  for (const key of [...names.map((name) => `results/${name}`), ...previewPhotos, ...photoFiles]) {
    try {
      await deps.storage.delete(key);
    } catch (err) {
      deps.log.error(
        { err },
        'a deleted account’s result file or kept photo could not be deleted (no row points to it: it is unreachable)',
      );
    }
  }
}
