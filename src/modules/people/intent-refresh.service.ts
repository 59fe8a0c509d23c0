import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CountCache } from '../../common/pagination/count-cache';
import { PEOPLE_LIST } from './people-list';
import { PeopleRollupsService } from './people-rollups.service';
import { PeopleRepository } from './people.repository';

const BATCH_SIZE = 200;

/**
 * The daily recomputation (docs/api.md §13.4): intent decays with time, so every person is rolled up
 * again as of `asOf`, in small transactions of BATCH_SIZE people through the same rollup as
 * ingestion; accounts follow. Safe to run twice or beside ingestion (same locks).
 */
@Injectable()
export class IntentRefreshService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly people: PeopleRepository,
    private readonly rollups: PeopleRollupsService,
    private readonly counts: CountCache,
  ) {}

  async refreshAll(asOf: Date): Promise<void> {
    for (const organizationId of await this.people.organizationsWithPeople())
      await this.refreshOrganization(organizationId, asOf);
  }

  async refreshOrganization(organizationId: string, asOf: Date): Promise<void> {
    let after = '';
    for (;;) {
      const keys = await this.people.emailKeysAfter(organizationId, after, BATCH_SIZE);
      if (keys.length === 0) break;
      await this.db.transaction((tx) => this.rollups.refresh(tx, organizationId, keys, asOf));
      after = keys[keys.length - 1];
    }
    await this.counts.invalidate(organizationId, PEOPLE_LIST);
  }
}
