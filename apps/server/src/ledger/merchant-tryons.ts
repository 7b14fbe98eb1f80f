/**
 * A try-on paid by a shop (the "Try it on" widget, docs/embed.md): one credit from the merchant's
 * ledger account, never a free trial, within the merchant's and the shopper's daily caps. The caps
 * are counted and the credit taken in one transaction under the merchant account's lock, so
 * concurrent try-ons can pass neither the caps nor the balance. Settling (complete, refund,
 * recovery) is the ordinary try-on's: the row is a `tryons` row of the merchant's account.
 */
import { iso } from '../db/ids.js';
import { countEmbedTryOns, insertEmbedTryOn } from '../repositories/merchants.js';
import { inTransaction, lockUser, type Db } from './transaction.js';
import { canReserveTryOn, reserveTryOn, type ReserveTryOnResult } from './reservations.js';

export interface ReserveMerchantTryOnInput {
  merchantId: string;
  /** The merchant's ledger account. */
  accountId: string;
  sessionId: string;
  shopperHash: string;
  dailyLimit: number;
  shopperDailyLimit: number;
  category: string;
  engine: string;
  /** Minutes the result is kept. */
  resultMinutes: number;
  ownerId: string | null;
  now: Date;
}

export type ReserveMerchantTryOnResult =
  Extract<ReserveTryOnResult, { ok: true }> | { ok: false; code: 'NO_CREDITS' | 'MERCHANT_LIMIT' | 'SHOPPER_LIMIT' };

/** The UTC day of a time, YYYY-MM-DD. */
export function utcDay(now: Date): string {
  return iso(now).slice(0, 10);
}

/**
 * Read-only, before a shop's try-on takes a place in line: why it would be refused now (the
 * merchant's daily cap reached, the shopper's, or no credit left), or undefined. Nothing is
 * reserved; `reserveMerchantTryOn` checks all three again under the lock.
 */
export async function merchantTryOnRefusal(
  db: Db,
  input: Pick<
    ReserveMerchantTryOnInput,
    'merchantId' | 'accountId' | 'shopperHash' | 'dailyLimit' | 'shopperDailyLimit' | 'now'
  >,
): Promise<Exclude<ReserveMerchantTryOnResult, { ok: true }>['code'] | undefined> {
  const day = utcDay(input.now);
  if ((await countEmbedTryOns(db, { merchantId: input.merchantId, day })) >= input.dailyLimit) return 'MERCHANT_LIMIT';
  const shopper = await countEmbedTryOns(db, { merchantId: input.merchantId, day, shopperHash: input.shopperHash });
  if (shopper >= input.shopperDailyLimit) return 'SHOPPER_LIMIT';
  if (!(await canReserveTryOn(db, { userId: input.accountId, freeTrialsLimit: 0, now: input.now, units: 1 })))
    return 'NO_CREDITS';
  return undefined;
}

/**
 * Reserves one credit of the merchant for a shopper's try-on, or refuses (nothing written): the
 * merchant's daily cap reached, the shopper's reached, or no credit left.
 */
export async function reserveMerchantTryOn(
  db: Db,
  input: ReserveMerchantTryOnInput,
): Promise<ReserveMerchantTryOnResult> {
  const day = utcDay(input.now);
  return inTransaction(db, async (trx) => {
    if (!(await lockUser(trx, input.accountId))) throw new Error(`no merchant account ${input.accountId}`);
    if ((await countEmbedTryOns(trx, { merchantId: input.merchantId, day })) >= input.dailyLimit)
      return { ok: false, code: 'MERCHANT_LIMIT' } as const;
    const shopper = await countEmbedTryOns(trx, { merchantId: input.merchantId, day, shopperHash: input.shopperHash });
    if (shopper >= input.shopperDailyLimit) return { ok: false, code: 'SHOPPER_LIMIT' } as const;
    const reserved = await reserveTryOn(trx, {
      userId: input.accountId,
      // A merchant pays with credits only.
      freeTrialsLimit: 0,
      category: input.category,
      engine: input.engine,
      now: input.now,
      resultRetentionDays: input.resultMinutes / (24 * 60),
      ownerId: input.ownerId,
      units: 1,
    });
    if (!reserved.ok) return reserved;
    await insertEmbedTryOn(trx, {
      tryon_id: reserved.tryon.id,
      merchant_id: input.merchantId,
      session_id: input.sessionId,
      shopper_hash: input.shopperHash,
      day,
      created_at: iso(input.now),
    });
    return reserved;
  });
}
