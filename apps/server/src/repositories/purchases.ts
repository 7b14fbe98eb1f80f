/** Purchases that touch more than one table: the credits (through the ledger) and the subscription, in one transaction. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { grantCredits, type GrantCreditsInput } from '../ledger/ledger.js';
import { setUserSubscription, type SubscriptionUpdate } from './users.js';

type Db = Kysely<Database>;

/**
 * Grants a purchase's credits and, for a subscription plan, records the subscription: both or
 * neither (one transaction).
 */
export async function recordPurchase(
  db: Db,
  grant: GrantCreditsInput,
  subscription: SubscriptionUpdate | null,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await grantCredits(trx, grant);
    if (subscription) await setUserSubscription(trx, grant.userId, subscription);
  });
}
