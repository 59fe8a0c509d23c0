import { createHmac } from 'node:crypto';

/** The bytes of an organization's salt (suppression_salts.salt). */
export const SALT_BYTES = 32;

/**
 * The form of an email that suppression compares: trimmed and lower-case, as sessions key their
 * people (docs/api.md §13.3), so `Ada@Example.com ` and `ada@example.com` are one person. '' when blank.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * What the suppression list keeps of an email (docs/api.md §18.3): HMAC-SHA256 of its normalized
 * form keyed by the organization's salt, in hex. The salt makes a hash useless to another
 * organization's list and to a dictionary of hashes computed without the database.
 */
export function suppressionHash(salt: Buffer, email: string): string {
  return createHmac('sha256', salt).update(normalizeEmail(email)).digest('hex');
}
