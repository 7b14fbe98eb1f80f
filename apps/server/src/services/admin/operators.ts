/**
 * Who is an operator: an account signed in by email whose address is in ADMIN_EMAILS (compared
 * without case), with that email sign-in less than OPERATOR_SIGN_IN_MAX_AGE_HOURS old. There is no
 * other way in: no default password, no device id, nothing in the web bundle.
 */
import { OPERATOR_SIGN_IN_MAX_AGE_HOURS } from '@aidressup/contract';
import type { Config } from '../../config.js';

const OPERATOR_SIGN_IN_MAX_AGE_MS = OPERATOR_SIGN_IN_MAX_AGE_HOURS * 60 * 60 * 1000;

/** Whether the address is one of ADMIN_EMAILS. */
export function isOperatorEmail(config: Config, email: string | null): boolean {
  if (!email) return false;
  return config.admin.emails.includes(email.trim().toLowerCase());
}

/** Whether an email sign-in at `signedInAt` is still recent enough for the operator routes. */
export function isRecentSignIn(signedInAt: string | null, now: Date): boolean {
  if (!signedInAt) return false;
  const at = Date.parse(signedInAt);
  return Number.isFinite(at) && now.getTime() - at < OPERATOR_SIGN_IN_MAX_AGE_MS && at <= now.getTime() + 60_000;
}

/** The operator acting: their user id and email, for the audit log and the ledger's actor. */
export interface Operator {
  id: string;
  email: string;
}
