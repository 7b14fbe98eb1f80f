import { randomBytes } from 'node:crypto';

/** An unguessable id: 21 characters of base64url (126 random bits). */
export function newId(): string {
  return randomBytes(16).toString('base64url').slice(0, 21);
}

/** ISO-8601 UTC text, the one timestamp format stored in the database. */
export function iso(date: Date): string {
  return date.toISOString();
}
