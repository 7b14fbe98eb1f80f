/**
 * Migration 013_sign_in_binding: a sign-in code is bound to the browser that asked for it. The
 * browser holds a random nonce in an HttpOnly cookie; the code's row keeps its SHA-256. Codes from
 * before have none: they sign in only after the confirmation another browser needs. Never edit it
 * once shipped.
 */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('email_codes').addColumn('binding_hash', 'text').execute();
  },
};
