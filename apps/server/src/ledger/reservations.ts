/**
 * Reserving a try-on before the work starts: a free trial or a credit per unit, all or none;
 * and the read-only check that lets the API refuse early.
 */
import { sql } from 'kysely';
import { RESULT_RETENTION_DAYS } from '@aidressup/contract';
import type { TryOnCharge, TryOnRow } from '../db/schema.js';
import { iso, newId } from '../db/ids.js';
import { inTransaction, lockUser, type Db, type Trx } from './transaction.js';
import { addEvent } from './credit-events.js';
import { balance } from './balance.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReserveTryOnInput {
  userId: string;
  freeTrialsLimit: number;
  category: string;
  engine: string;
  now?: Date;
  /** Days the result is kept; default 30. */
  resultRetentionDays?: number;
  /** The process running the try-on (crash recovery settles the try-ons of a process that is gone). */
  ownerId?: string | null;
  /** Units to charge: 1 for one garment, 2 for a whole outfit (top and bottom). All or none. */
  units?: number;
}

export type ReserveTryOnResult =
  | {
      ok: true;
      tryon: TryOnRow;
      /** The first unit's charge (free trials are taken first: `trial` when any unit was a free trial). */
      charge: TryOnCharge;
      grantId: string | null;
      /** Every unit's charge, in the order taken. */
      charges: TryOnCharge[];
    }
  | { ok: false; code: 'NO_CREDITS' };

/**
 * Reserves a try-on: for each unit, a free trial while any is left, else one credit from the
 * unexpired grant that expires soonest (never-expiring grants last). Records a `processing`
 * try-on row per unit (the first is the try-on; the others are companions `bundle_of` it) and
 * each spend event, in one transaction: with too little for every unit, nothing is taken.
 */
export async function reserveTryOn(db: Db, input: ReserveTryOnInput): Promise<ReserveTryOnResult> {
  const now = input.now ?? new Date();
  const nowIso = iso(now);
  const units = input.units ?? 1;
  try {
    return await inTransaction(db, async (trx) => {
      if (!(await lockUser(trx, input.userId))) throw new Error(`no user ${input.userId}`);
      const expiresAt = iso(new Date(now.getTime() + (input.resultRetentionDays ?? RESULT_RETENTION_DAYS) * DAY_MS));
      let main: { tryon: TryOnRow; charge: TryOnCharge; grantId: string | null } | null = null;
      const charges: TryOnCharge[] = [];
      for (let unit = 0; unit < units; unit++) {
        const spent = await spendOneUnit(trx, input, nowIso);
        // Not enough for every unit: roll back the units taken so far.
        if (!spent) throw NOT_ENOUGH;
        const tryon: TryOnRow = {
          id: newId(),
          user_id: input.userId,
          category: input.category,
          engine: input.engine,
          status: 'processing',
          charge: spent.charge,
          grant_id: spent.grantId,
          result_name: null,
          error_code: null,
          created_at: nowIso,
          finished_at: null,
          expires_at: expiresAt,
          // Companion rows have no owner: they settle with the main row, never on their own.
          owner_id: main ? null : (input.ownerId ?? null),
          staged_result: null,
          bundle_of: main ? main.tryon.id : null,
          share_token: null,
          shared_at: null,
          kept_photos: null,
          photos_until: null,
          requested_engine: null,
          cost_micros: null,
          refunded_at: null,
        };
        await trx.insertInto('tryons').values(tryon).execute();
        await addEvent(trx, {
          userId: input.userId,
          type: spent.charge === 'trial' ? 'trial_spend' : 'spend',
          amount: -1,
          grantId: spent.grantId,
          tryonId: tryon.id,
          now,
        });
        main ??= { tryon, charge: spent.charge, grantId: spent.grantId };
        charges.push(spent.charge);
      }
      if (!main) throw new Error('reserveTryOn: units must be at least 1');
      return { ok: true, ...main, charges } as const;
    });
  } catch (err) {
    if (err === NOT_ENOUGH) return { ok: false, code: 'NO_CREDITS' } as const;
    throw err;
  }
}

/** Thrown inside a reservation's transaction to roll back the units already taken. */
const NOT_ENOUGH = Symbol('not enough free trials or credits');

/**
 * Takes one unit for a try-on: a free trial if one is left, else one credit from the unexpired
 * grant that expires soonest (never-expiring grants last); null when there is neither.
 */
async function spendOneUnit(
  trx: Trx,
  input: ReserveTryOnInput,
  nowIso: string,
): Promise<{ charge: TryOnCharge; grantId: string | null } | null> {
  if (await spendFreeTrial(trx, input.userId, input.freeTrialsLimit)) return { charge: 'trial', grantId: null };
  for (let attempt = 0; attempt < 5; attempt++) {
    const grant = await trx
      .selectFrom('credit_grants')
      .select('id')
      .where('user_id', '=', input.userId)
      .where('remaining', '>', 0)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
      .orderBy(sql`case when expires_at is null then 1 else 0 end`)
      .orderBy('expires_at')
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!grant) return null;
    const spent = await trx
      .updateTable('credit_grants')
      .set({ remaining: sql<number>`remaining - 1` })
      .where('id', '=', grant.id)
      .where('remaining', '>', 0)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) === 1) return { charge: 'credit', grantId: grant.id };
  }
  return null;
}

/**
 * Takes one free trial, if the user has one left and so does the device the user was created
 * on (a device's trials are shared by all its users). Both counters change by guarded updates in
 * the caller's transaction, so neither can pass the limit under concurrency.
 */
async function spendFreeTrial(trx: Trx, userId: string, limit: number): Promise<boolean> {
  const user = await trx
    .updateTable('users')
    .set({ free_trials_used: sql<number>`free_trials_used + 1` })
    .where('id', '=', userId)
    .where('free_trials_used', '<', limit)
    .returning('device_id')
    .executeTakeFirst();
  if (!user) return false;
  if (user.device_id === null) return true;
  const device = await trx
    .updateTable('devices')
    .set({ free_trials_used: sql<number>`free_trials_used + 1` })
    .where('device_id', '=', user.device_id)
    .where('free_trials_used', '<', limit)
    .executeTakeFirst();
  if (Number(device.numUpdatedRows) === 1) return true;
  const known = await trx
    .selectFrom('devices')
    .select('device_id')
    .where('device_id', '=', user.device_id)
    .executeTakeFirst();
  if (!known) return true; // a device never recorded (users made before devices were counted) limits nothing
  // The device's trials were used by another of its users: this user has none left either.
  await trx.updateTable('users').set({ free_trials_used: limit }).where('id', '=', userId).execute();
  return false;
}

/**
 * Read-only: whether the user could reserve a try-on now (a free trial left, or an unexpired
 * credit). Lets the API refuse before the costly work; the reservation itself stays the
 * authority (it may still refuse when a concurrent try-on took the last one).
 */
export async function canReserveTryOn(
  db: Db,
  input: { userId: string; freeTrialsLimit: number; now?: Date; units?: number },
): Promise<boolean> {
  return (await spendableUnits(db, input)) >= (input.units ?? 1);
}

/**
 * Read-only: how many try-on units the user could be charged now, free trials (their own, within
 * what their device has left) and credits together; 0 for an unknown user.
 */
export async function spendableUnits(
  db: Db,
  input: { userId: string; freeTrialsLimit: number; now?: Date },
): Promise<number> {
  const user = await db
    .selectFrom('users')
    .select(['free_trials_used', 'device_id'])
    .where('id', '=', input.userId)
    .executeTakeFirst();
  if (!user) return 0;
  let trials = Math.max(0, input.freeTrialsLimit - user.free_trials_used);
  if (trials > 0 && user.device_id) {
    // A device shares its free trials among its users (see spendFreeTrial).
    const device = await db
      .selectFrom('devices')
      .select('free_trials_used')
      .where('device_id', '=', user.device_id)
      .executeTakeFirst();
    if (device) trials = Math.min(trials, Math.max(0, input.freeTrialsLimit - device.free_trials_used));
  }
  return trials + (await balance(db, input.userId, input.now ?? new Date()));
}
