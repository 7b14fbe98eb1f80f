/**
 * The credit ledger (docs/architecture.md, "7. Credit ledger"). Every change to credits or free trials goes through here,
 * inside a transaction, and leaves an append-only `credit_events` row.
 *
 * Each function takes the database or a transaction as its first argument. Given the
 * database it opens its own transaction; given a transaction it joins it, so a caller can
 * combine a grant with its own writes (the Paddle webhook records the event id in the same
 * transaction as the grant).
 *
 * This file is the ledger's public face: import the ledger from here. The work is in
 *   - transaction.ts   the transaction helper and the user lock, with the concurrency reasoning;
 *   - credit-events.ts the append-only event log and its listeners (`onCreditEvent`);
 *   - grants.ts        granting credits, clawing back a refunded purchase, expiring grants;
 *   - balance.ts       read-only: the balance, credits from priority plans;
 *   - reservations.ts  reserving a try-on's free trials or credits, and the read-only pre-check;
 *   - settlement.ts    completing or refunding a reserved try-on, refunding stuck ones;
 *   - accounts.ts      merging an anonymous user into an account, forfeiting on data deletion;
 *   - adjustments.ts   an operator adding or taking back credits, with a reason and the actor;
 *   - report-refunds.ts giving back what a reported try-on cost (a trial as a trial);
 *   - merchant-tryons.ts a shop's try-on: a merchant's credit within its daily caps.
 * Those modules never import this file.
 */
export { onCreditEvent } from './credit-events.js';
export { clawbackGrant, expireGrants, grantCredits, type GrantCreditsInput } from './grants.js';
export { balance, holdsPlanCredits } from './balance.js';
export { canReserveTryOn, reserveTryOn, spendableUnits } from './reservations.js';
export { completeTryOn, refundStuckTryOns, refundTryOn } from './settlement.js';
export { forfeitCredits, mergeUserInto } from './accounts.js';
export { adjustCredits } from './adjustments.js';
export { refundReportedTryOn, type ReportUnit } from './report-refunds.js';
export { merchantTryOnRefusal, reserveMerchantTryOn, utcDay } from './merchant-tryons.js';
