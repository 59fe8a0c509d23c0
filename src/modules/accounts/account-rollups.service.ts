import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { lockNames } from '../../database/advisory-locks';
import { AccountsRepository } from './accounts.repository';
import { rollUpAccount } from './rules/account-rollup';

/**
 * Keeps accounts equal to a from-scratch rollup of their people. Runs inside the caller's
 * transaction, after the people it reads were written, holding each domain's lock so concurrent
 * writers of one account serialise (the last one reads everything the others committed).
 */
@Injectable()
export class AccountRollupsService {
  constructor(private readonly accounts: AccountsRepository) {}

  async refresh(tx: EntityManager, organizationId: string, domains: Iterable<string>): Promise<void> {
    const unique = [...new Set(domains)];
    if (unique.length === 0) return;
    await lockNames(tx, unique.map((domain) => `account:${organizationId}:${domain}`));
    const peopleByDomain = await this.accounts.peopleFactsFor(tx, organizationId, unique);
    const rollups = [...peopleByDomain].map(([domain, people]) => rollUpAccount(domain, people));
    await this.accounts.upsertRollups(tx, organizationId, rollups);
    await this.accounts.deleteByDomains(tx, organizationId, unique.filter((domain) => !peopleByDomain.has(domain)));
  }
}
