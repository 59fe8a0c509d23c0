import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, type EntityManager } from 'typeorm';
import { SortKey, type Keyset, type PageWindow } from '../../common/pagination/cursor';
import { preparedQuery } from '../../common/database/prepared-query';
import type { Row } from '../../common/database/rows';
import { SqlConditions } from '../../common/database/sql-conditions';
import type { AccountsListQuery } from './dto/accounts-list.query';
import type { AccountRollup } from './rules/account-rollup';

export type AccountRow = Row<'accounts'>;

/** The only place that queries accounts; every statement is scoped by organization_id. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async findByDomain(organizationId: string, domain: string): Promise<AccountRow | null> {
    const rows = await preparedQuery<AccountRow>(
      this.db,
      `SELECT * FROM accounts WHERE organization_id = $1 AND account_domain = $2`,
      [organizationId, domain],
    );
    return rows[0] ?? null;
  }

  /**
   * A page of accounts, lastSeenAt newest first then id (accounts_list_idx), or (updatedAt, id)
   * ascending for a sync (accounts_updated_idx).
   */
  async listPage(
    organizationId: string,
    query: AccountsListQuery,
    window: PageWindow,
  ): Promise<(AccountRow & { keyset: Keyset })[]> {
    const where = this.filters(organizationId, query);
    const key = query.updated_since === undefined ? BY_LAST_SEEN : BY_UPDATE;
    const after = window.after === null ? '' : `AND ${key.after(window.after, (value) => where.param(value))}`;
    const limit = where.param(window.limit);
    const offset = where.param(window.skip);
    return this.db.query(
      `SELECT *, ${key.select()} FROM accounts WHERE ${where.toSql()} ${after} ORDER BY ${key.orderBy()} LIMIT ${limit} OFFSET ${offset}`,
      where.params,
    );
  }

  async count(organizationId: string, query: AccountsListQuery): Promise<number> {
    const where = this.filters(organizationId, query);
    const [row]: { total: string }[] = await this.db.query(
      `SELECT count(*) AS total FROM accounts WHERE ${where.toSql()}`,
      where.params,
    );
    return Number(row.total);
  }

  /**
   * Writes rollups; an existing account keeps its id. EXCLUDED.updated_at is the column's default
   * (now()): Citus refuses a function call in DO UPDATE.
   */
  async upsertRollups(tx: EntityManager, organizationId: string, rollups: AccountRollup[]): Promise<void> {
    if (rollups.length === 0) return;
    const records = rollups.map((r) => ({
      id: uuidv7(),
      account_domain: r.accountDomain,
      company_name: r.companyName,
      total_users: r.totalUsers,
      total_sessions: r.totalSessions,
      booked_sessions: r.bookedSessions,
      high_intent_users: r.highIntentUsers,
      qualified_users: r.qualifiedUsers,
      total_time_spent_seconds: r.totalTimeSpentSeconds,
      last_seen_at: r.lastSeenAt,
      summary_markdown: r.summaryMarkdown,
    }));
    await tx.query(
      `INSERT INTO accounts (organization_id, id, account_domain, company_name, total_users, total_sessions, booked_sessions,
                             high_intent_users, qualified_users, total_time_spent_seconds, last_seen_at, summary_markdown)
       SELECT $1, r.* FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, account_domain text, company_name text, total_users integer,
              total_sessions integer, booked_sessions integer, high_intent_users integer, qualified_users integer,
              total_time_spent_seconds bigint, last_seen_at timestamptz, summary_markdown text)
       ON CONFLICT (organization_id, account_domain) DO UPDATE SET
         company_name = EXCLUDED.company_name, total_users = EXCLUDED.total_users, total_sessions = EXCLUDED.total_sessions,
         booked_sessions = EXCLUDED.booked_sessions, high_intent_users = EXCLUDED.high_intent_users,
         qualified_users = EXCLUDED.qualified_users, total_time_spent_seconds = EXCLUDED.total_time_spent_seconds,
         last_seen_at = EXCLUDED.last_seen_at, summary_markdown = EXCLUDED.summary_markdown, updated_at = EXCLUDED.updated_at`,
      [organizationId, JSON.stringify(records)],
    );
  }

  async deleteByDomains(tx: EntityManager, organizationId: string, domains: string[]): Promise<void> {
    if (domains.length > 0)
      await tx.query(`DELETE FROM accounts WHERE organization_id = $1 AND account_domain = ANY($2)`, [
        organizationId,
        domains,
      ]);
  }

  private filters(organizationId: string, query: AccountsListQuery): SqlConditions {
    return new SqlConditions()
      .add('organization_id = $?', organizationId)
      .addIf('updated_at >= $?', query.updated_since);
  }
}

const BY_LAST_SEEN = new SortKey([
  { sql: 'last_seen_at', type: 'timestamptz', descending: true },
  { sql: 'id', type: 'uuid', descending: true },
]);
const BY_UPDATE = new SortKey([
  { sql: 'updated_at', type: 'timestamptz', descending: false },
  { sql: 'id', type: 'uuid', descending: false },
]);
