import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, type EntityManager } from 'typeorm';
import { containsPattern, SqlConditions } from '../../database/sql-conditions';
import type { PeopleListQuery } from './dto/people-list.query';
import type { BuyingIntent } from './rules/intent';
import type { PersonRollup, SessionFacts } from './rules/person-rollup';

export interface PersonRow {
  id: string;
  email_key: string;
  name: string | null;
  phone: string | null;
  business: string | null;
  total_sessions: number;
  first_seen_at: Date;
  last_seen_at: Date;
  total_time_spent_seconds: string;
  first_source: string | null;
  last_source: string | null;
  last_location: string | null;
  qualification_status: string | null;
  qualification_rationale: string | null;
  qualification_source: string | null;
  qualification_assessed_at: Date | null;
  qualification_rubric_version_id: string | null;
  buying_intent: string | null;
  account_domain: string | null;
  summary_markdown: string | null;
  intent_score: number;
  overall_intent: string;
  intent_calculated_at: Date;
}

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

const UPSERT_ROLLUPS = `
  INSERT INTO people (organization_id, id, ${ROLLUP_COLUMNS.map(([c]) => c).join(', ')})
  SELECT $1, r.id, ${ROLLUP_COLUMNS.map(([c]) => `r.${c}`).join(', ')}
    FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, ${ROLLUP_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})
  ON CONFLICT (organization_id, email_key) DO UPDATE SET
    ${ROLLUP_COLUMNS.filter(([c]) => c !== 'email_key').map(([c]) => `${c} = EXCLUDED.${c}`).join(', ')},
    updated_at = now()
  RETURNING id, email_key`;

interface SessionFactsRow {
  id: string;
  email_key: string;
  start_time: Date;
  end_time: Date | null;
  name: string | null;
  phone: string | null;
  business: string | null;
  utm_source: string | null;
  geo_city: string | null;
  geo_region: string | null;
  geo_country: string | null;
  qualification_status: string | null;
  qualification_rationale: string | null;
  qualification_source: string | null;
  qualification_assessed_at: Date | null;
  qualification_rubric_version_id: string | null;
  buying_intent: BuyingIntent | null;
  booked_status: string | null;
  summary_markdown: string | null;
}

export interface SessionAssignment {
  emailKey: string;
  personId: string;
  qualificationStatus: string | null;
}

/** The only place that queries people; every statement is scoped by organization_id. */
@Injectable()
export class PeopleRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The visible sessions of these people (sessions_person_key_idx), grouped by email key. */
  async sessionFactsFor(tx: EntityManager, organizationId: string, emailKeys: string[]): Promise<Map<string, SessionFacts[]>> {
    const rows: SessionFactsRow[] = await tx.query(
      `SELECT id, email_key, start_time, end_time, name, phone, business, utm_source,
              tracking->>'geoCity' AS geo_city, tracking->>'geoRegion' AS geo_region, geo_country,
              qualification_status, qualification_rationale, qualification_source, qualification_assessed_at,
              qualification_rubric_version_id, buying_intent, booked_status, summary_markdown
         FROM sessions
        WHERE organization_id = $1 AND email_key = ANY($2)
          AND environment = 'production' AND analysis_status = 'analyzed'`,
      [organizationId, emailKeys],
    );
    const byKey = new Map<string, SessionFacts[]>();
    for (const row of rows) {
      const facts: SessionFacts = {
        id: row.id,
        startTime: row.start_time,
        endTime: row.end_time,
        name: row.name,
        phone: row.phone,
        business: row.business,
        utmSource: row.utm_source,
        geoCity: row.geo_city,
        geoRegion: row.geo_region,
        geoCountry: row.geo_country,
        qualificationStatus: row.qualification_status,
        qualificationRationale: row.qualification_rationale,
        qualificationSource: row.qualification_source,
        qualificationAssessedAt: row.qualification_assessed_at,
        qualificationRubricVersionId: row.qualification_rubric_version_id,
        buyingIntent: row.buying_intent,
        bookedStatus: row.booked_status,
        summaryMarkdown: row.summary_markdown,
      };
      byKey.set(row.email_key, [...(byKey.get(row.email_key) ?? []), facts]);
    }
    return byKey;
  }

  /** Writes rollups (a new person gets a new id, an existing one keeps its id); returns ids by email key. */
  async upsertRollups(tx: EntityManager, organizationId: string, rollups: PersonRollup[]): Promise<Map<string, string>> {
    if (rollups.length === 0) return new Map();
    const records = rollups.map((rollup) => ({ id: uuidv7(), ...Object.fromEntries(ROLLUP_COLUMNS.map(([column, , value]) => [column, value(rollup)])) }));
    const rows: { id: string; email_key: string }[] = await tx.query(UPSERT_ROLLUPS, [organizationId, JSON.stringify(records)]);
    return new Map(rows.map((row) => [row.email_key, row.id]));
  }

  /** Points each person's visible sessions at it, with the person's effective qualification. */
  async assignSessions(tx: EntityManager, organizationId: string, assignments: SessionAssignment[]): Promise<void> {
    if (assignments.length === 0) return;
    await tx.query(
      `UPDATE sessions s SET person_id = a.person_id, effective_qualification_status = a.qualification_status
         FROM jsonb_to_recordset($2::jsonb) AS a(email_key text, person_id uuid, qualification_status text)
        WHERE s.organization_id = $1 AND s.email_key = a.email_key
          AND s.environment = 'production' AND s.analysis_status = 'analyzed'
          AND (s.person_id IS DISTINCT FROM a.person_id OR s.effective_qualification_status IS DISTINCT FROM a.qualification_status)`,
      [organizationId, JSON.stringify(assignments.map((a) => ({ email_key: a.emailKey, person_id: a.personId, qualification_status: a.qualificationStatus })))],
    );
  }

  async deleteByEmailKeys(tx: EntityManager, organizationId: string, emailKeys: string[]): Promise<void> {
    if (emailKeys.length > 0) await tx.query(`DELETE FROM people WHERE organization_id = $1 AND email_key = ANY($2)`, [organizationId, emailKeys]);
  }

  /** Email keys in key order after `afterKey`, for batch recomputation (people_email_key). */
  async emailKeysAfter(organizationId: string, afterKey: string, limit: number): Promise<string[]> {
    const rows: { email_key: string }[] = await this.db.query(
      `SELECT email_key FROM people WHERE organization_id = $1 AND email_key > $2 ORDER BY email_key LIMIT $3`,
      [organizationId, afterKey, limit],
    );
    return rows.map((row) => row.email_key);
  }

  async organizationsWithPeople(): Promise<string[]> {
    const rows: { organization_id: string }[] = await this.db.query(`SELECT DISTINCT organization_id FROM people`);
    return rows.map((row) => row.organization_id);
  }

  async findById(organizationId: string, id: string): Promise<PersonRow | null> {
    const rows: PersonRow[] = await this.db.query(`SELECT * FROM people WHERE organization_id = $1 AND id = $2`, [organizationId, id]);
    return rows[0] ?? null;
  }

  /**
   * A page of people, lastSeenAt newest first then id. The page's ids come from people_list_idx
   * (index-only, so a deep offset skips index entries, not rows) and only they are read whole.
   */
  async listPage(organizationId: string, query: PeopleListQuery): Promise<PersonRow[]> {
    const where = this.filters(organizationId, query);
    const limit = where.param(query.limit);
    const offset = where.param(query.offset);
    return this.db.query(
      `WITH page AS (
         SELECT id, last_seen_at FROM people WHERE ${where.toSql()}
          ORDER BY last_seen_at DESC, id DESC LIMIT ${limit} OFFSET ${offset})
       SELECT p.* FROM page JOIN people p ON p.organization_id = $1 AND p.id = page.id
        ORDER BY page.last_seen_at DESC, page.id DESC`,
      where.params,
    );
  }

  async count(organizationId: string, query: PeopleListQuery): Promise<number> {
    const where = this.filters(organizationId, query);
    const [row]: { total: string }[] = await this.db.query(`SELECT count(*) AS total FROM people WHERE ${where.toSql()}`, where.params);
    return Number(row.total);
  }

  private filters(organizationId: string, query: PeopleListQuery): SqlConditions {
    return new SqlConditions()
      .add('organization_id = $?', organizationId)
      .addIf(`email_key LIKE $? ESCAPE '\\'`, query.email === undefined ? undefined : containsPattern(query.email))
      .addIf('buying_intent = ANY($?)', query.buying_intent)
      .addIf('qualification_status = ANY($?)', query.qualification_status)
      .addIf('last_seen_at >= $?', query.last_seen_from)
      .addIf('last_seen_at <= $?', query.last_seen_to);
  }
}
