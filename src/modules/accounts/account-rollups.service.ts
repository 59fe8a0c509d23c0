import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { lockNames } from '../../common/database/advisory-locks';
import { AccountsRepository } from './accounts.repository';
import { rollUpAccount, type PersonFacts } from './rules/account-rollup';

/** The people of these account domains, grouped by domain: read by their owner, inside the caller's transaction. */
export type PeopleOfDomains = (domains: string[]) => Promise<Map<string, PersonFacts[]>>;

/**
 * Keeps accounts equal to a from-scratch rollup of their people. Runs inside the caller's
 * transaction, after the people it reads (through `peopleOf`: people are not this module's) were written, holding each domain's lock so concurrent
 * writers of one account serialise (the last one reads everything the others committed).
 */
@Injectable()
export class AccountRollupsService {
  constructor(private readonly accounts: AccountsRepository) {}

  async refresh(
    tx: EntityManager,
    organizationId: string,
    domains: Iterable<string>,
    peopleOf: PeopleOfDomains,
  ): Promise<void> {
    const unique = [...new Set(domains)];
    if (unique.length === 0) return;
    await lockNames(
      tx,
      unique.map((domain) => `account:${organizationId}:${domain}`),
    );
    const peopleByDomain = await peopleOf(unique);
    const rollups = [...peopleByDomain].map(([domain, people]) => rollUpAccount(domain, people));
    await this.accounts.upsertRollups(tx, organizationId, rollups);
    await this.accounts.deleteByDomains(
      tx,
      organizationId,
      unique.filter((domain) => !peopleByDomain.has(domain)),
    );
  }
}
