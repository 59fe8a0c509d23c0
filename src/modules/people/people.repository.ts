import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, type EntityManager } from 'typeorm';
import { SortKey, type Keyset, type PageWindow } from '../../common/pagination/cursor';
import type { Row } from '../../common/database/rows';
import { containsPattern, SqlConditions } from '../../common/database/sql-conditions';
import type { PersonFacts } from '../accounts';
import type { PeopleListQuery } from './dto/people-list.query';
import type { PersonRollup } from './rules/person-rollup';

export type PersonRow = Row<'people'>;

/** What an account rollup reads of a person (accountFactsFor), under PersonFacts' names. */
type PersonFactsRow = {
  id: PersonRow['id'];
  accountDomain: NonNullable<PersonRow['account_domain']>;
  business: PersonRow['business'];
  totalSessions: PersonRow['total_sessions'];
  bookedSessions: PersonRow['booked_sessions'];
  /** ::float8: a number. */
  totalTimeSpentSeconds: number;
  lastSeenAt: PersonRow['last_seen_at'];
  overallIntent: PersonRow['overall_intent'];
  qualificationStatus: PersonRow['qualification_status'];
  summaryMarkdown: PersonRow['summary_markdown'];
};

/** people columns written by a rollup, with their SQL types and values. */
const ROLLUP_COLUMNS: [column: string, type: string, value: (r: PersonRollup) => unknown][] = [
  ['email_key', 'text', (r) => r.emailKey],
  ['name', 'text', (r) => r.name],
  ['phone', 'text', (r) => r.phone],
  ['business', 'text', (r) => r.business],
  ['total_sessions', 'integer', (r) => r.totalSessions],
  ['booked_sessions', 'integer', (r) => r.bookedSessions],
  ['first_seen_at', 'timestamptz', (r) => r.firstSeenAt],
  ['last_seen_at', 'timestamptz', (r) => r.lastSeenAt],
  ['total_time_spent_seconds', 'bigint', (r) => r.totalTimeSpentSeconds],
  ['first_source', 'text', (r) => r.firstSource],
  ['last_source', 'text', (r) => r.lastSource],
  ['last_location', 'text', (r) => r.lastLocation],
  ['qualification_status', 'text', (r) => r.qualification?.status ?? null],
  ['qualification_rationale', 'text', (r) => r.qualification?.rationale ?? null],
  ['qualification_source', 'text', (r) => r.qualification?.source ?? null],
  ['qualification_assessed_at', 'timestamptz', (r) => r.qualification?.assessedAt ?? null],
  ['qualification_rubric_version_id', 'text', (r) => r.qualification?.rubricVersionId ?? null],
  ['buying_intent', 'text', (r) => r.buyingIntent],
  ['account_domain', 'text', (r) => r.accountDomain],
  ['summary_markdown', 'text', (r) => r.summaryMarkdown],
  ['intent_score', 'double precision', (r) => r.intentScore],
  ['overall_intent', 'text', (r) => r.overallIntent],
  ['intent_calculated_at', 'timestamptz', (r) => r.intentCalculatedAt],
];

// EXCLUDED.updated_at is the column's default (now()): Citus refuses a function call in DO UPDATE.
const UPSERT_ROLLUPS = `
  INSERT INTO people (organization_id, id, ${ROLLUP_COLUMNS.map(([c]) => c).join(', ')})
  SELECT $1, r.id, ${ROLLUP_COLUMNS.map(([c]) => `r.${c}`).join(', ')}
    FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, ${ROLLUP_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})
  ON CONFLICT (organization_id, email_key) DO UPDATE SET
    ${ROLLUP_COLUMNS.filter(([c]) => c !== 'email_key')
      .map(([c]) => `${c} = EXCLUDED.${c}`)
      .join(', ')},
    updated_at = EXCLUDED.updated_at
  RETURNING id, email_key`;

/** The only place that queries people; every statement is scoped by organization_id. */
@Injectable()
export class PeopleRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The person of an email key, or null (people_email_key). */
  async findByEmailKey(organizationId: string, emailKey: string): Promise<PersonRow | null> {
    const rows: PersonRow[] = await this.db.query(
      `SELECT * FROM people WHERE organization_id = $1 AND email_key = $2`,
      [organizationId, emailKey],
    );
    return rows[0] ?? null;
  }

  /** What account rollups read of the people of these domains (people_account_idx), grouped by domain. */
  async accountFactsFor(
    tx: EntityManager,
    organizationId: string,
    domains: string[],
  ): Promise<Map<string, PersonFacts[]>> {
    const rows: PersonFactsRow[] = await tx.query(
      `SELECT id, account_domain AS "accountDomain", business, total_sessions AS "totalSessions", booked_sessions AS "bookedSessions",
              total_time_spent_seconds::float8 AS "totalTimeSpentSeconds", last_seen_at AS "lastSeenAt", overall_intent AS "overallIntent",
              qualification_status AS "qualificationStatus", summary_markdown AS "summaryMarkdown"
         FROM people WHERE organization_id = $1 AND account_domain = ANY($2)`,
      [organizationId, domains],
    );
    const byDomain = new Map<string, PersonFacts[]>();
    for (const { accountDomain, ...facts } of rows)
      byDomain.set(accountDomain, [...(byDomain.get(accountDomain) ?? []), facts]);
    return byDomain;
  }

  /** Writes rollups (a new person gets a new id, an existing one keeps its id); returns ids by email key. */
  async upsertRollups(
    tx: EntityManager,
    organizationId: string,
    rollups: PersonRollup[],
  ): Promise<Map<string, string>> {
    if (rollups.length === 0) return new Map();
    const records = rollups.map((rollup) => ({
      id: uuidv7(),
      ...Object.fromEntries(ROLLUP_COLUMNS.map(([column, , value]) => [column, value(rollup)])),
    }));
    const rows: Pick<PersonRow, 'id' | 'email_key'>[] = await tx.query(UPSERT_ROLLUPS, [
      organizationId,
      JSON.stringify(records),
    ]);
    return new Map(rows.map((row) => [row.email_key, row.id]));
  }

  /** Deletes the people with these email keys; returns how many there were. */
  async deleteByEmailKeys(tx: EntityManager, organizationId: string, emailKeys: string[]): Promise<number> {
    if (emailKeys.length === 0) return 0;
    const [, deleted]: [unknown, number] = await tx.query(
      `DELETE FROM people WHERE organization_id = $1 AND email_key = ANY($2)`,
      [organizationId, emailKeys],
    );
    return deleted;
  }

  /** Email keys in key order after `afterKey`, for batch recomputation (people_email_key). */
  async emailKeysAfter(organizationId: string, afterKey: string, limit: number): Promise<string[]> {
    const rows: Pick<PersonRow, 'email_key'>[] = await this.db.query(
      `SELECT email_key FROM people WHERE organization_id = $1 AND email_key > $2 ORDER BY email_key LIMIT $3`,
      [organizationId, afterKey, limit],
    );
    return rows.map((row) => row.email_key);
  }

  async organizationsWithPeople(): Promise<string[]> {
    const rows: Pick<PersonRow, 'organization_id'>[] = await this.db.query(
      `SELECT DISTINCT organization_id FROM people`,
    );
    return rows.map((row) => row.organization_id);
  }

  async findById(organizationId: string, id: string): Promise<PersonRow | null> {
    const rows: PersonRow[] = await this.db.query(`SELECT * FROM people WHERE organization_id = $1 AND id = $2`, [
      organizationId,
      id,
    ]);
    return rows[0] ?? null;
  }

  /**
   * A page of people, lastSeenAt newest first then id, or (updatedAt, id) ascending for a sync. The
   * page's ids come from people_list_idx / people_updated_idx (index-only, so a deep offset skips
   * index entries, not rows) and only they are read whole.
   */
  async listPage(
    organizationId: string,
    query: PeopleListQuery,
    window: PageWindow,
  ): Promise<(PersonRow & { keyset: Keyset })[]> {
    const where = this.filters(organizationId, query);
    const key = query.updated_since === undefined ? BY_LAST_SEEN : BY_UPDATE;
    const after = window.after === null ? '' : `AND ${key.after(window.after, (value) => where.param(value))}`;
    const limit = where.param(window.limit);
    const offset = where.param(window.skip);
    return this.db.query(
      `WITH page AS (
         SELECT id, last_seen_at, updated_at FROM people WHERE ${where.toSql()} ${after}
          ORDER BY ${key.orderBy()} LIMIT ${limit} OFFSET ${offset})
       SELECT p.*, ${key.select('p.')} FROM page JOIN people p ON p.organization_id = $1 AND p.id = page.id
        ORDER BY ${key.orderBy('page.')}`,
      where.params,
    );
  }

  async count(organizationId: string, query: PeopleListQuery): Promise<number> {
    const where = this.filters(organizationId, query);
    const [row]: { total: string }[] = await this.db.query(
      `SELECT count(*) AS total FROM people WHERE ${where.toSql()}`,
      where.params,
    );
    return Number(row.total);
  }

  private filters(organizationId: string, query: PeopleListQuery): SqlConditions {
    return new SqlConditions()
      .add('organization_id = $?', organizationId)
      .addIf(`email_key LIKE $? ESCAPE '\\'`, query.email === undefined ? undefined : containsPattern(query.email))
      .addIf('buying_intent = ANY($?)', query.buying_intent)
      .addIf('qualification_status = ANY($?)', query.qualification_status)
      .addIf('last_seen_at >= $?', query.last_seen_from)
      .addIf('last_seen_at <= $?', query.last_seen_to)
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
