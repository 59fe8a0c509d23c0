import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { normalizeEmail, SALT_BYTES, suppressionHash } from './rules/email-hash';
import { SuppressedEmailError, type GivenEmail } from './suppressed-email.error';
import { SuppressionsRepository } from './suppressions.repository';

/**
 * Each organization's suppression list (docs/api.md §18.3): the emails of people erased with
 * `suppress: true`, kept as salted hashes (rules/email-hash.ts), never as emails. Session ingestion,
 * link creation and link PATCH refuse a listed email before they charge, look up or write anything.
 */
@Injectable()
export class SuppressionList {
  /**
   * Salts read once committed. A salt never changes once made (it is only inserted if absent), so
   * it can be kept; its absence cannot: any instance may make it at any time.
   */
  private readonly salts = new Map<string, Buffer>();

  constructor(private readonly repository: SuppressionsRepository) {}

  /** Lists `email` in the caller's transaction; listing it again changes nothing. Makes the salt on first use. */
  async suppress(tx: EntityManager, organizationId: string, email: string): Promise<void> {
    if (normalizeEmail(email) === '') throw new Error('A blank email cannot be suppressed');
    const salt = await this.repository.saltFor(tx, organizationId, randomBytes(SALT_BYTES));
    await this.repository.add(tx, organizationId, suppressionHash(salt, email));
  }

  /**
   * Which of `emails` (as given) are listed: one query for all of them, after one for the salt until
   * this instance knows it. Blank ones never are; an organization without a salt has none listed
   * (and gets no salt from a read).
   */
  async suppressedAmong(organizationId: string, emails: readonly string[]): Promise<Set<string>> {
    const given = emails.filter((email) => normalizeEmail(email) !== '');
    if (given.length === 0) return new Set();
    const salt = await this.saltOf(organizationId);
    if (!salt) return new Set();
    const hashes = new Map(given.map((email) => [email, suppressionHash(salt, email)]));
    const listed = await this.repository.listed(organizationId, [...new Set(hashes.values())]);
    return new Set(given.filter((email) => listed.has(hashes.get(email) as string)));
  }

  /** Refuses a request (422 at each suppressed email's loc, all at once) that gives a listed email. */
  async refuseSuppressed(organizationId: string, given: readonly GivenEmail[]): Promise<void> {
    const emails = given.flatMap(({ email }) => (email ? [email] : []));
    const suppressed = await this.suppressedAmong(organizationId, emails);
    const refused = given.filter(({ email }) => email && suppressed.has(email));
    if (refused.length > 0) throw new SuppressedEmailError(refused);
  }

  /** null: the organization has never suppressed anyone (nothing kept of that, see `salts`). */
  private async saltOf(organizationId: string): Promise<Buffer | null> {
    const known = this.salts.get(organizationId);
    if (known) return known;
    const salt = await this.repository.salt(organizationId);
    if (salt) this.salts.set(organizationId, salt);
    return salt;
  }
}
