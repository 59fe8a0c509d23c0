import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { SortKey, type Keyset, type PageWindow } from '../../common/pagination/cursor';
import { isoTimestamp } from '../../common/database/iso-timestamp';
import { preparedQuery } from '../../common/database/prepared-query';
import type { IsoText, Narrowed, Row } from '../../common/database/rows';
import { containsPattern, SqlConditions } from '../../common/database/sql-conditions';
import { phoneDigitsSql, type DataSubject } from '../../common/privacy/data-subject';
import type { ActivityPageQuery, ActivityRow } from '../accounts';
import type { EventType } from '../engagement';
import type { SessionAssignment, SessionFacts } from '../people';
import type { SessionListQuery } from './dto/session-list.query';
import { wholeMonthsWithin } from './rules/month-buckets';
import { GRAM_LENGTH, searchedGrams, type GramShare } from './rules/searched-grams';
import type { SessionDetails, SessionRecord, Tracking, TranscriptEntry } from './rules/session-record';
import { derivedRowChanges, type SessionImage, type SessionImageChange } from './rules/derived-rows';
import { visibleSession } from './visible-session';

/** A session row as the list and detail read it (LIST_COLUMNS), with its person's intent (person_intents). */
export type SessionRow = IsoText<
  Pick<
    Row<'sessions'>,
    | 'id'
    | 'display_id'
    | 'start_time'
    | 'end_time'
    | 'session_type'
    | 'email'
    | 'name'
    | 'business'
    | 'phone'
    | 'person_id'
    | 'effective_qualification_status'
    | 'qualification_rationale'
    | 'qualification_source'
    | 'qualification_assessed_at'
    | 'qualification_rubric_version_id'
    | 'buying_intent'
    | 'booked_status'
    | 'session_status'
    | 'sentiment'
    | 'engagement_level'
    | 'primary_intent'
    | 'summary_markdown'
    | 'utm_source'
    | 'device'
    | 'geo_country'
    | 'custom_link_id'
    | 'custom_link_campaign_id'
    | 'updated_at'
  >,
  'start_time' | 'end_time' | 'qualification_assessed_at' | 'updated_at'
> &
  IsoText<
    Pick<Row<'person_intents'>, 'overall_intent' | 'intent_score' | 'intent_calculated_at'>,
    'intent_calculated_at'
  >;

/** A listed session with its keyset (the cursor of the page it ends). */
export type ListedSession = SessionRow & { keyset: Keyset };

/** A list query with an email substring, which searches session_emails. */
export type SessionSearchQuery = SessionListQuery & { email: string };

/**
 * The earliest human event of one type that tracking observed of a session through one link, with
 * that link's campaign (custom-links' read model link_rollups; null when unfiled or gone).
 */
export type ObservedEvent = Narrowed<
  Pick<Row<'session_observations'>, 'custom_link_id' | 'type' | 'at'> & Pick<Row<'link_rollups'>, 'campaign_id'>,
  { custom_link_id: string; type: EventType; at: Date; campaign_id: string | null }
>;

export type SessionDetailRow = SessionRow &
  Narrowed<Pick<Row<'sessions'>, 'tracking' | 'details'>, { tracking: Tracking; details: SessionDetails }> & {
    /** Oldest first. */
    observed: ObservedEvent[];
  };

export interface StoredSession {
  organizationId: string;
  fingerprint: string;
  emailKey: string | null;
  personId: string | null;
  analysisStatus: string;
}

/** What a person's rollup reads of each of its sessions (factsOfPeople). */
type PersonSessionRow = Narrowed<
  Pick<
    Row<'sessions'>,
    | 'id'
    | 'email_key'
    | 'start_time'
    | 'end_time'
    | 'name'
    | 'phone'
    | 'business'
    | 'utm_source'
    | 'geo_country'
    | 'qualification_status'
    | 'qualification_rationale'
    | 'qualification_source'
    | 'qualification_assessed_at'
    | 'qualification_rubric_version_id'
    | 'buying_intent'
    | 'booked_status'
    | 'summary_markdown'
  >,
  // Selected by email key: never null here.
  { email_key: string; buying_intent: SessionFacts['buyingIntent'] }
> & { geo_city: Tracking['geoCity']; geo_region: Tracking['geoRegion'] };

/** A stored transcript, entries by sequenceNumber. */
export type StoredTranscript = Narrowed<
  Pick<Row<'session_transcripts'>, 'entries' | 'total'>,
  { entries: TranscriptEntry[] }
>;

/** A visible session's transcript and the day's reads charged with it (readTranscript). */
type TranscriptRead = StoredTranscript & {
  reads: Row<'transcript_daily_reads'>['reads'] | null;
};

/**
 * EMAIL_SEARCH. A search reads only the searched organization's rows, by one of two paths
 * (bench/RESULTS.md, issue 21), N being the organization's visible sessions:
 * - session_emails_grams_idx (GIN over each email's 3-grams with its organization, migration
 *   TenantEmailSearch) gives the candidates, each a heap page that LIKE rechecks: a page or a count
 *   costs about a page read per match;
 * - session_emails_list_idx, an index-only scan that applies LIKE to its email_key: a page walks it
 *   newest first and finds its matches after about page × N / matches entries; a count reads all N.
 * A page's costs cross near sqrt(N) matches, a count's near N / COUNT_ENTRIES_PER_MATCH. The
 * repository chooses, as the planner cannot: it estimates a conjunction of correlated grams as
 * nearly empty and would take the grams index for `gmail` too. Through the grams index, a search
 * asks for its rarest grams only, by the organization's sampled gram shares (searchedGrams,
 * EmailGramSamples): the bitmap scan decodes each asked gram's whole posting list.
 *
 * EmailSearchLimits: the most matches a search's page and count take through the grams index, and
 * the grams (hashes) they ask it for.
 */
export interface EmailSearchLimits {
  page: number;
  count: number;
  grams: string[];
}

/** An organization's sampled emails (sampleEmailGrams): how many, and in how many each kept gram (hash) occurs. */
export interface EmailGramSample {
  /** Visible sessions when sampled. */
  sessions: number;
  entries: number;
  shares: { gram: string; entries: number }[];
}

/** About how many emails an organization's gram sample holds (sampleEmailGrams). */
const GRAM_SAMPLE_SIZE = 10_000;
/** A gram in fewer sampled emails is not kept (it is rare either way, and a count describes no one email). */
const MIN_GRAM_ENTRIES = 2;

/** List index entries read for the cost of one heap page (36-70 entries a leaf page, by fill). */
const COUNT_ENTRIES_PER_MATCH = 50;

/** Below this offset a page reads its index entries directly; from it, it seeks its hour first (seekSql). */
const SEEK_FROM_OFFSET = 10_000;

type CountUnit = 'month' | 'day' | 'hour';

/**
 * Where the visible sessions per UTC `unit` are counted: the compacted table per facet combination,
 * the one summed over the facets (day and hour: migration SessionSeekTotals), and how a pending
 * delta names its bucket. Deltas name their month, and their hour when written by an instance of
 * migration SessionSeekCounts or later: per day or hour only those count.
 */
const COUNT_SOURCES: Record<CountUnit, { table: string; totals: string | null; deltaAt: string; deltaColumn: string }> =
  {
    month: { table: 'session_counts', totals: null, deltaAt: 'month', deltaColumn: 'month' },
    day: {
      table: 'session_day_counts',
      totals: 'session_day_totals',
      deltaAt: `date_trunc('day', hour)`,
      deltaColumn: 'hour',
    },
    hour: {
      table: 'session_hour_counts',
      totals: 'session_hour_totals',
      deltaAt: `date_trunc('hour', hour)`,
      deltaColumn: 'hour',
    },
  };

/**
 * Visible sessions per organization, UTC `unit` (as `at`) and enum values, optionally in [from, to):
 * the compacted counts plus the pending deltas (COUNT_SOURCES). `byFacets` false: the rows carry no
 * enum values, and the day and hour ones come from the totals (one row per bucket).
 */
function bucketCounts(
  unit: CountUnit,
  organization: string,
  range?: { from: string; to: string },
  byFacets = true,
): string {
  const { table, totals, deltaAt, deltaColumn } = COUNT_SOURCES[unit];
  const within = (column: string) => (range ? ` AND ${column} >= ${range.from} AND ${column} < ${range.to}` : '');
  const facets = byFacets ? `${FACETS}, ` : '';
  return `(
  SELECT ${unit} AS at, ${facets}sessions FROM ${byFacets ? table : (totals ?? table)}
   WHERE organization_id = ${organization}${within(unit)}
  UNION ALL
  SELECT ${deltaAt}, ${facets}sessions FROM session_count_deltas
   WHERE organization_id = ${organization}${within(deltaColumn)}) c`;
}

/**
 * One step of a deep offset's seek, the CTEs `name_buckets` (at, n: sessions per bucket from
 * `buckets`) and `name` (at, n, skipped): the newest bucket whose sessions reach past the offset, and
 * how many sessions are newer than it. Within `outer` (the previous step's bucket), only when the
 * buckets add up to outer's sessions: deltas written without their hour (an instance older than
 * migration SessionSeekCounts) reach the monthly counts only, and then the seek stops at the month.
 */
function seekStep(name: string, buckets: string, offset: string, outer: string | null): string {
  const inner =
    outer === null
      ? { from: '', newer: '', complete: '' }
      : { from: `${outer} o, `, newer: 'o.skipped + ', complete: ` AND o.n = (SELECT sum(n) FROM ${name}_buckets)` };
  return `${name}_buckets AS (${buckets}),
      ${name} AS (
        SELECT b.at, b.n, ${inner.newer}b.through - b.n AS skipped
          FROM ${inner.from}(SELECT at, n, sum(n) OVER (ORDER BY at DESC) AS through FROM ${name}_buckets) b
         WHERE ${inner.newer}b.through > ${offset}${inner.complete}
         ORDER BY b.at DESC LIMIT 1)`;
}

const VISIBLE = visibleSession('s');

// Timestamps come as the response's text (isoTimestamp): a page of 50 rows would parse 250 Dates only to format them back.
const LIST_COLUMNS = `s.id, s.display_id, ${isoTimestamp('s.start_time')}, ${isoTimestamp('s.end_time')}, s.session_type, s.email, s.name, s.business, s.phone,
  s.person_id, s.effective_qualification_status, s.qualification_rationale, s.qualification_source,
  ${isoTimestamp('s.qualification_assessed_at')}, s.qualification_rubric_version_id, s.buying_intent, s.booked_status, s.session_status,
  s.sentiment, s.engagement_level, s.primary_intent, s.summary_markdown, s.utm_source, s.device, s.geo_country,
  s.custom_link_id, s.custom_link_campaign_id, ${isoTimestamp('s.updated_at')},
  pi.overall_intent, pi.intent_score, ${isoTimestamp('pi.intent_calculated_at')}`;

/**
 * A session's detail columns: LIST_COLUMNS, its details, and what engagement tracking observed of it
 * (engagement's read model session_observations, by link_events_session_idx): the earliest human
 * event of each type per link, oldest first, with the link's campaign (link_rollups). $1 is the
 * organization of every statement that reads them.
 */
const DETAIL_COLUMNS = `${LIST_COLUMNS}, s.tracking, s.details,
              coalesce((SELECT json_agg(json_build_object('custom_link_id', o.custom_link_id, 'type', o.type, 'at', o.at,
                                                          'campaign_id', lr.campaign_id) ORDER BY o.at)
                          FROM session_observations o
                          LEFT JOIN link_rollups lr ON lr.organization_id = o.organization_id AND lr.link_id = o.custom_link_id
                         WHERE o.organization_id = $1 AND o.session_id = s.id), '[]') AS observed`;

/** A detail as DETAIL_COLUMNS reads it: observed times as JSON text. */
type ReadDetail = Omit<SessionDetailRow, 'observed'> & { observed: (Omit<ObservedEvent, 'at'> & { at: string })[] };

/** Replaced in place: copying a row of some 40 columns with a spread costs more than the mapping itself. */
const toDetailRow = (row: ReadDetail): SessionDetailRow =>
  Object.assign(row, { observed: row.observed.map((e) => ({ ...e, at: new Date(e.at) })) });

/**
 * Each session's person, for their intent: the people module's read model (person_intents), by
 * people_pkey. The organization is $1 of every statement that reads sessions, never the outer row's
 * column, so that on Citus the statement routes to one shard (docs/scaling.md).
 */
const PERSON_INTENT = `LEFT JOIN person_intents pi ON pi.organization_id = $1 AND pi.person_id = s.person_id`;

/** sessions columns written by an ingestion, in parameter order after organization_id and id. */
const RECORD_COLUMNS: [column: string, value: (r: SessionRecord) => unknown][] = [
  ['environment', (r) => r.environment],
  ['analysis_status', (r) => r.analysisStatus],
  ['display_id', (r) => r.displayId],
  ['start_time', (r) => r.startTime],
  ['end_time', (r) => r.endTime],
  ['session_type', (r) => r.sessionType],
  ['email', (r) => r.email],
  ['email_key', (r) => r.emailKey],
  ['name', (r) => r.name],
  ['business', (r) => r.business],
  ['phone', (r) => r.phone],
  ['qualification_status', (r) => r.qualificationStatus],
  // Until the person rollup runs (same transaction), a session's effective qualification is its own.
  ['effective_qualification_status', (r) => r.qualificationStatus],
  ['qualification_rationale', (r) => r.qualificationRationale],
  ['qualification_source', (r) => r.qualificationSource],
  ['qualification_assessed_at', (r) => r.qualificationAssessedAt],
  ['qualification_rubric_version_id', (r) => r.qualificationRubricVersionId],
  ['buying_intent', (r) => r.buyingIntent],
  ['booked_status', (r) => r.bookedStatus],
  ['session_status', (r) => r.sessionStatus],
  ['sentiment', (r) => r.sentiment],
  ['engagement_level', (r) => r.engagementLevel],
  ['primary_intent', (r) => r.primaryIntent],
  ['summary_markdown', (r) => r.summaryMarkdown],
  ['utm_source', (r) => r.utmSource],
  ['device', (r) => r.device],
  ['geo_country', (r) => r.geoCountry],
  ['tracking', (r) => JSON.stringify(r.tracking)],
  ['details', (r) => JSON.stringify(r.details)],
  ['custom_link_id', (r) => r.customLinkId],
  ['custom_link_campaign_id', (r) => r.customLinkCampaignId],
];

/**
 * A session row's columns its derived rows read (SessionImage), unqualified: a statement that names
 * them joins no relation with such columns. An immutable expression, as Citus requires in RETURNING.
 */
export const SESSION_IMAGE = `id, environment, analysis_status,
  (extract(epoch FROM start_time AT TIME ZONE 'UTC') * 1000000)::int8 AS start_micros, email_key,
  effective_qualification_status, buying_intent, booked_status`;
const FACETS = 'effective_qualification_status, buying_intent, booked_status';

/**
 * An ingestion's write of a session, returning its new image for its derived rows (writeDerived),
 * after upsert read its old image under the row's lock.
 *
 * EXCLUDED.updated_at is the column's default (now()) in the proposed row: Citus refuses a function call
 * in DO UPDATE but takes a column of EXCLUDED (docs/scaling.md, "Citus compatibility (statements)").
 */
const UPSERT_SESSION = `
  INSERT INTO sessions (organization_id, id, fingerprint, person_id, ${RECORD_COLUMNS.map(([c]) => c).join(', ')})
  VALUES ($1, $2, $3, NULL, ${RECORD_COLUMNS.map((_, i) => `$${i + 4}`).join(', ')})
  ON CONFLICT (organization_id, id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, person_id = NULL,
    ${RECORD_COLUMNS.map(([c]) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = EXCLUDED.updated_at
  RETURNING ${SESSION_IMAGE}`;

/** The only place that queries sessions and transcripts; every read is scoped by organization_id. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The first `limit` sessions of an email key, visible or not (staging, pending), newest first, each
   * as its detail reads it (sessions_email_key_idx): what the organization holds about the person.
   */
  async detailsOfEmail(organizationId: string, emailKey: string, limit: number): Promise<SessionDetailRow[]> {
    const rows: ReadDetail[] = await this.db.query(
      `SELECT ${DETAIL_COLUMNS}
         FROM sessions s ${PERSON_INTENT}
        WHERE s.organization_id = $1 AND s.email_key = $2
        ORDER BY s.start_time DESC, s.id DESC LIMIT $3`,
      [organizationId, emailKey, limit],
    );
    return rows.map(toDetailRow);
  }

  /** The stored transcripts of these sessions, visible or not, by session id (primary key); nothing charged. */
  async transcriptsOf(organizationId: string, sessionIds: string[]): Promise<Map<string, StoredTranscript>> {
    if (sessionIds.length === 0) return new Map();
    const rows: (StoredTranscript & Pick<Row<'session_transcripts'>, 'session_id'>)[] = await this.db.query(
      `SELECT session_id, entries, total FROM session_transcripts WHERE organization_id = $1 AND session_id = ANY($2::uuid[])`,
      [organizationId, sessionIds],
    );
    return new Map(rows.map(({ session_id, entries, total }) => [session_id, { entries, total }]));
  }

  /**
   * The stored session with this id in any organization: its organization from session_ids, then the
   * row within it (ingestion must know whether the id is taken elsewhere; callers hold the id's lock).
   * Only the owner and rollup keys leave this method.
   */
  async findStored(tx: EntityManager, id: string): Promise<StoredSession | null> {
    const owners: Pick<Row<'session_ids'>, 'organization_id'>[] = await tx.query(
      `SELECT organization_id FROM session_ids WHERE id = $1`,
      [id],
    );
    if (owners.length === 0) return null;
    const rows: Pick<
      Row<'sessions'>,
      'organization_id' | 'fingerprint' | 'email_key' | 'person_id' | 'analysis_status'
    >[] = await tx.query(
      `SELECT organization_id, fingerprint, email_key, person_id, analysis_status FROM sessions
        WHERE organization_id = $1 AND id = $2`,
      [owners[0].organization_id, id],
    );
    const row = rows[0];
    return row
      ? {
          organizationId: row.organization_id,
          fingerprint: row.fingerprint,
          emailKey: row.email_key,
          personId: row.person_id,
          analysisStatus: row.analysis_status,
        }
      : null;
  }

  /**
   * Records the organization of a session id stored for the first time (session_ids keeps ids unique
   * across organizations). A lookup row whose session is gone (its organization deleted) is taken over.
   */
  async claimId(tx: EntityManager, organizationId: string, id: string): Promise<void> {
    await tx.query(
      `INSERT INTO session_ids (id, organization_id) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE SET organization_id = EXCLUDED.organization_id`,
      [id, organizationId],
    );
  }

  async upsert(
    tx: EntityManager,
    organizationId: string,
    id: string,
    record: SessionRecord,
    fingerprint: string,
  ): Promise<void> {
    // Under the row's lock, so that two writers of one session count it once: the second reads what
    // the first wrote. Ingestions of one id run one after another (its advisory lock), so a session
    // not found here is inserted, not updated.
    const before: SessionImage[] = await tx.query(
      `SELECT ${SESSION_IMAGE} FROM sessions WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, id],
    );
    const after: SessionImage[] = await tx.query(UPSERT_SESSION, [
      organizationId,
      id,
      fingerprint,
      ...RECORD_COLUMNS.map(([, value]) => value(record)),
    ]);
    await this.writeDerived(tx, organizationId, [{ before: before[0] ?? null, after: after[0] }]);
  }

  async replaceTranscript(
    tx: EntityManager,
    organizationId: string,
    sessionId: string,
    entries: TranscriptEntry[],
  ): Promise<void> {
    await tx.query(
      `INSERT INTO session_transcripts (organization_id, session_id, entries, total) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, session_id) DO UPDATE SET entries = EXCLUDED.entries, total = EXCLUDED.total, updated_at = EXCLUDED.updated_at`,
      [organizationId, sessionId, JSON.stringify(entries), entries.length],
    );
  }

  /** The transcript of a visible session only: it is readable exactly when the session's detail is. */
  /**
   * A visible session's transcript and its charge to the organization's reads of `day`, in one
   * statement: a read is charged only when the transcript is found, and only while fewer than
   * `limit` were charged that day. The upsert locks the day's row, so concurrent reads on every
   * instance are counted one at a time and never pass the limit. `reads` is the day's count with
   * this read, or null when the quota was spent (nothing charged).
   *
   * The statement commits without waiting for its WAL flush (synchronous_commit off, for this
   * transaction only): waiting held the day's row locked through every flush, and halved the reads
   * an organization could make per second (1,865 → 867 req/s, docs/operations.md). A PostgreSQL
   * crash, not a restart, may forget the last fraction of a second of charges.
   */
  async readTranscript(
    organizationId: string,
    sessionId: string,
    quota: { day: string; limit: number },
  ): Promise<TranscriptRead | null> {
    const rows = await preparedQuery<TranscriptRead>(
      this.db,
      `WITH found AS (
         SELECT t.entries, t.total
           FROM session_transcripts t JOIN sessions s ON s.organization_id = t.organization_id AND s.id = t.session_id
          WHERE t.organization_id = $1 AND t.session_id = $2 AND ${VISIBLE}),
       charged AS (
         INSERT INTO transcript_daily_reads AS r (organization_id, day, reads)
         SELECT $1, $3::date, 1 FROM found WHERE $4::int > 0
         ON CONFLICT (organization_id, day) DO UPDATE SET reads = r.reads + 1 WHERE r.reads < $4::int
         RETURNING r.reads)
       SELECT found.entries, found.total, (SELECT reads FROM charged) AS reads
         FROM found CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) async_commit`,
      [organizationId, sessionId, quota.day, quota.limit],
    );
    return rows[0] ?? null;
  }

  /** The transcript reads charged to the organization's `day` (0 before its first), by the primary key. */
  async transcriptReadsOn(organizationId: string, day: string): Promise<number> {
    const rows: Pick<Row<'transcript_daily_reads'>, 'reads'>[] = await this.db.query(
      `SELECT reads FROM transcript_daily_reads WHERE organization_id = $1 AND day = $2::date`,
      [organizationId, day],
    );
    return rows[0]?.reads ?? 0;
  }

  /** The visible sessions of these people (sessions_person_key_idx), grouped by email key. */
  async factsOfPeople(
    tx: EntityManager,
    organizationId: string,
    emailKeys: string[],
  ): Promise<Map<string, SessionFacts[]>> {
    const rows: PersonSessionRow[] = await tx.query(
      `SELECT id, email_key, start_time, end_time, name, phone, business, utm_source,
              tracking->>'geoCity' AS geo_city, tracking->>'geoRegion' AS geo_region, geo_country,
              qualification_status, qualification_rationale, qualification_source, qualification_assessed_at,
              qualification_rubric_version_id, buying_intent, booked_status, summary_markdown
         FROM sessions
        WHERE organization_id = $1 AND email_key = ANY($2) AND ${visibleSession()}`,
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

  /**
   * Points each person's visible sessions at it, with the person's effective qualification, and
   * keeps their derived rows (writeDerived): the sessions whose assignment changes are locked and
   * read first, in id order, then updated.
   */
  async assignPeople(tx: EntityManager, organizationId: string, assignments: SessionAssignment[]): Promise<void> {
    if (assignments.length === 0) return;
    const before: (SessionImage & { assigned_person: string | null; assigned_qualification: string | null })[] =
      await tx.query(
        `SELECT ${SESSION_IMAGE}, a.assigned_person, a.assigned_qualification
           FROM sessions s JOIN jsonb_to_recordset($2::jsonb) AS a(key text, assigned_person uuid, assigned_qualification text)
             ON a.key = s.email_key
          WHERE s.organization_id = $1 AND ${VISIBLE}
            AND (s.person_id IS DISTINCT FROM a.assigned_person OR s.effective_qualification_status IS DISTINCT FROM a.assigned_qualification)
          ORDER BY s.id FOR UPDATE OF s`,
        [
          organizationId,
          JSON.stringify(
            assignments.map((a) => ({
              key: a.emailKey,
              assigned_person: a.personId,
              assigned_qualification: a.qualificationStatus,
            })),
          ),
        ],
      );
    if (before.length === 0) return;
    const [after]: [SessionImage[], number] = await tx.query(
      `UPDATE sessions s SET person_id = a.assigned_person, effective_qualification_status = a.assigned_qualification
         FROM unnest($2::uuid[], $3::uuid[], $4::text[]) AS a(session_id, assigned_person, assigned_qualification)
        WHERE s.organization_id = $1 AND s.id = a.session_id
       RETURNING ${SESSION_IMAGE}`,
      [
        organizationId,
        before.map((row) => row.id),
        before.map((row) => row.assigned_person),
        before.map((row) => row.assigned_qualification),
      ],
    );
    const written = new Map(after.map((row) => [row.id, row]));
    await this.writeDerived(
      tx,
      organizationId,
      before.map((row) => ({ before: row, after: written.get(row.id) ?? null })),
    );
  }

  /**
   * Writes what a write of the organization's sessions in `tx` did to the rows derived from them
   * (derivedRowChanges): appends the count deltas (folded into session_counts later, migration
   * SessionCounts) and updates the email search's copy (session_emails, migration SessionEmailSearch).
   * The callers read the sessions' old images under their rows' locks and the new ones from the write
   * (no trigger: on Citus a trigger cannot write another distributed table, issue 35). Each statement
   * names the organization and takes its rows as arrays, so Citus runs it on the organization's
   * shard; one with nothing to write is not sent.
   */
  async writeDerived(tx: EntityManager, organizationId: string, changes: SessionImageChange[]): Promise<void> {
    const { counts, unlisted, listed } = derivedRowChanges(changes);
    if (counts.length > 0) {
      await tx.query(
        `INSERT INTO session_count_deltas (organization_id, month, hour, ${FACETS}, sessions)
         SELECT $1, date_trunc('month', d.hour), d.* FROM unnest($2::timestamp[], $3::text[], $4::text[], $5::text[], $6::bigint[])
                          AS d(hour, ${FACETS}, sessions)`,
        [
          organizationId,
          counts.map((c) => c.hour),
          counts.map((c) => c.effective_qualification_status),
          counts.map((c) => c.buying_intent),
          counts.map((c) => c.booked_status),
          counts.map((c) => c.sessions),
        ],
      );
    }
    if (unlisted.length > 0) {
      await tx.query(`DELETE FROM session_emails WHERE organization_id = $1 AND id = ANY($2::uuid[])`, [
        organizationId,
        unlisted,
      ]);
    }
    if (listed.length > 0) {
      await tx.query(
        `INSERT INTO session_emails (organization_id, id, start_time, email_key, ${FACETS})
         SELECT $1, d.* FROM unnest($2::uuid[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[])
                          AS d(id, start_time, email_key, ${FACETS})
         ON CONFLICT (organization_id, id) DO UPDATE SET start_time = EXCLUDED.start_time, email_key = EXCLUDED.email_key,
           effective_qualification_status = EXCLUDED.effective_qualification_status, buying_intent = EXCLUDED.buying_intent,
           booked_status = EXCLUDED.booked_status`,
        [
          organizationId,
          listed.map((row) => row.id),
          listed.map((row) => row.start_time),
          listed.map((row) => row.email_key),
          listed.map((row) => row.effective_qualification_status),
          listed.map((row) => row.buying_intent),
          listed.map((row) => row.booked_status),
        ],
      );
    }
  }

  /**
   * A visible session with its details, its person's intent and what engagement tracking observed of
   * it (engagement's read model session_observations, by link_events_session_idx): the earliest human
   * event of each type per link, oldest first, with the link's campaign (link_rollups). One statement; null when absent, elsewhere, staging or
   * pending. `tx`: as that transaction sees it (its own statement, not the prepared one on the pool).
   */
  async findVisible(organizationId: string, id: string, tx?: EntityManager): Promise<SessionDetailRow | null> {
    const sql = `SELECT ${DETAIL_COLUMNS}
         FROM sessions s ${PERSON_INTENT}
        WHERE s.organization_id = $1 AND s.id = $2 AND ${VISIBLE}`;
    const rows: ReadDetail[] = tx
      ? await tx.query(sql, [organizationId, id])
      : await preparedQuery<ReadDetail>(this.db, sql, [organizationId, id]);
    const row = rows[0];
    return row ? toDetailRow(row) : null;
  }

  /** Those of these sessions that are visible (sessions primary key). */
  /**
   * The first `limit` visible sessions of the people of an account domain, newest first (start time,
   * then id, descending), after `bound` (docs/api.md §4.2, an account's activity). The people come from
   * people's read model person_accounts (people_account_idx); each person's sessions from
   * sessions_person_key_idx, at most `limit` of them, so a page reads the account's people and their
   * sessions' index entries, never the organization's. A session's link is its detail's: ingested, else
   * the link of its earliest tracked event (session_observations, link_events_session_idx), looked up
   * for the page's sessions only.
   */
  async accountActivityPage(
    organizationId: string,
    { domain, bound, limit }: ActivityPageQuery,
  ): Promise<ActivityRow[]> {
    const params: unknown[] = [organizationId, domain, limit];
    const after = bound === null ? '' : `AND ${BY_START.afterBound(bound, (value) => `$${params.push(value)}`)}`;
    return this.db.query(
      `WITH page AS (
         SELECT s.*, p.person_id FROM person_accounts p
          CROSS JOIN LATERAL (
            SELECT s.organization_id, s.id, s.start_time, s.custom_link_id FROM sessions s
             WHERE s.organization_id = $1 AND s.email_key = p.email_key AND ${VISIBLE} ${after}
             ORDER BY ${BY_START.orderBy()} LIMIT $3) s
          WHERE p.organization_id = $1 AND p.account_domain = $2
          ORDER BY ${BY_START.orderBy()} LIMIT $3)
       SELECT s.start_time AS occurred_at, s.id AS session_id, s.person_id, NULL AS event_id, NULL AS type,
              coalesce(s.custom_link_id, (SELECT o.custom_link_id FROM session_observations o
                                           WHERE o.organization_id = $1 AND o.session_id = s.id
                                           ORDER BY o.at, o.custom_link_id LIMIT 1)) AS custom_link_id,
              s.start_time::text AS at, (extract(epoch FROM s.start_time) * 1000000)::int8 AS micros, s.id::text AS key
         FROM page s ORDER BY ${BY_START.orderBy()}`,
      params,
    );
  }

  /** Those of these sessions the organization holds, visible or not (sessions primary key). */
  async heldAmong(organizationId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: Pick<Row<'sessions'>, 'id'>[] = await this.db.query(
      `SELECT id FROM sessions WHERE organization_id = $1 AND id = ANY($2::uuid[])`,
      [organizationId, ids],
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * A page of the organization's sessions, visible or not, that `selection` picks, by id after
   * `after`. Retention walks the organization's sessions once by the primary key (no index of its
   * own on start_time to keep up on every ingestion); a subject's are found through the email and
   * phone-digit indexes.
   */
  async selectedPage(
    organizationId: string,
    selection: SessionSelection,
    after: string | null,
    limit: number,
  ): Promise<string[]> {
    const params: unknown[] = [organizationId, after, limit];
    const rows: Pick<Row<'sessions'>, 'id'>[] = await this.db.query(
      `SELECT id FROM sessions
        WHERE organization_id = $1 AND ($2::uuid IS NULL OR id > $2::uuid) AND ${selectionSql(selection, params)}
        ORDER BY id LIMIT $3`,
      params,
    );
    return rows.map((row) => row.id);
  }

  /** The email keys of these sessions, visible or not (sessions primary key). */
  async emailKeysOf(tx: EntityManager, organizationId: string, ids: string[]): Promise<string[]> {
    const rows: Pick<Row<'sessions'>, 'email_key'>[] = await tx.query(
      `SELECT DISTINCT email_key FROM sessions WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND email_key IS NOT NULL`,
      [organizationId, ids],
    );
    return rows.map((row) => row.email_key as string);
  }

  /**
   * Deletes those of these sessions that `selection` still picks (an ingestion may have changed one
   * since it was listed; callers hold the sessions' locks), their transcripts with them (foreign
   * key) and their derived rows (writeDerived, from the deleted rows as RETURNING gives them);
   * returns each deleted session's email key and whether it had a transcript.
   */
  async deleteSelected(
    tx: EntityManager,
    organizationId: string,
    ids: string[],
    selection: SessionSelection,
  ): Promise<{ id: string; emailKey: string | null; transcript: boolean }[]> {
    const params: unknown[] = [organizationId, ids];
    const [rows]: [(SessionImage & { transcript: boolean })[], number] = await tx.query(
      `DELETE FROM sessions s WHERE s.organization_id = $1 AND s.id = ANY($2::uuid[]) AND ${selectionSql(selection, params, 's')}
       RETURNING ${SESSION_IMAGE}, EXISTS (
         SELECT 1 FROM session_transcripts t WHERE t.organization_id = $1 AND t.session_id = s.id) AS transcript`,
      params,
    );
    await this.writeDerived(
      tx,
      organizationId,
      rows.map((row) => ({ before: row, after: null })),
    );
    await tx.query(`DELETE FROM session_ids WHERE id = ANY($2::uuid[]) AND organization_id = $1`, [
      organizationId,
      rows.map((row) => row.id),
    ]);
    return rows.map((row) => ({ id: row.id, emailKey: row.email_key, transcript: row.transcript }));
  }

  /** Deletes up to `limit` transcripts of sessions that started before `cutoff`; returns how many. */
  async deleteTranscriptsBefore(organizationId: string, cutoff: Date, limit: number): Promise<number> {
    const [, deleted]: [unknown, number] = await this.db.query(
      `WITH expired AS (
         SELECT t.session_id FROM session_transcripts t
           JOIN sessions s ON s.organization_id = t.organization_id AND s.id = t.session_id
          WHERE t.organization_id = $1 AND s.start_time < $2 LIMIT $3)
       DELETE FROM session_transcripts t USING expired e WHERE t.organization_id = $1 AND t.session_id = e.session_id`,
      [organizationId, cutoff.toISOString(), limit],
    );
    return deleted;
  }

  async visibleAmong(organizationId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: Pick<Row<'sessions'>, 'id'>[] = await this.db.query(
      `SELECT s.id FROM sessions s WHERE s.organization_id = $1 AND s.id = ANY($2::uuid[]) AND ${VISIBLE}`,
      [organizationId, ids],
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * A page of visible sessions, newest first then id, with the exact total: one statement, so both
   * come from one snapshot. The page's ids come from sessions_list_idx (an index-only scan that also
   * applies the enum filters), so an offset skips index entries, not rows; only the page's rows are
   * read whole (deferred join). A deep offset first seeks its UTC hour through the per-month, day
   * and hour counts, so it skips at most an hour of entries (seekSql). Planned once per connection (prepared), so not
   * for an email substring, whose best plan depends on the substring: see searchPage and searchCount.
   */
  async list(
    organizationId: string,
    query: SessionListQuery,
    window: PageWindow,
  ): Promise<{ rows: ListedSession[]; total: number }> {
    if (query.email !== undefined && query.updated_since === undefined)
      throw new Error(
        'SessionsRepository.list searches emails only with updated_since: use searchPage and searchCount',
      );
    const where = this.filters(organizationId, query);
    const key = sessionSortKey(query);
    const page = this.pageSql(where, query, window);
    // A seek's month buckets are every month of the filters' counts: the total, summed once.
    const total = seeks(query, window, 'sessions')
      ? `(SELECT coalesce(sum(n), 0) FROM month_seek_buckets)`
      : this.totalSql(where.params, organizationId, query);
    const sql = `${page}
       SELECT t.total, ${LIST_COLUMNS}, ${key.select('s.')} FROM (SELECT ${total} AS total) t
         LEFT JOIN (page JOIN sessions s ON s.organization_id = $1 AND s.id = page.id ${PERSON_INTENT}) ON true
        ORDER BY ${key.orderBy('page.')}`;
    const rows = await preparedQuery<ListedSession & { total: string }>(this.db, sql, where.params);
    return { rows: rows[0].id === null ? [] : rows, total: Number(rows[0].total) };
  }

  /**
   * A page of an email substring search whose total is `total` (the service caches it): the page's
   * ids come from `session_emails` by the organization's path for that many matches (EMAIL_SEARCH,
   * `limits` from emailSearchLimits); only the page's rows are read from sessions.
   */
  async searchPage(
    organizationId: string,
    query: SessionSearchQuery,
    window: PageWindow,
    total: number,
    limits: EmailSearchLimits | null,
  ): Promise<ListedSession[]> {
    const where = this.searchFilters(
      organizationId,
      query,
      limits !== null && total <= limits.page ? limits.grams : null,
    );
    return this.db.query(
      `${this.pageSql(where, query, window, 'session_emails')}
       SELECT ${LIST_COLUMNS}, ${BY_START.select('s.')} FROM page
         JOIN sessions s ON s.organization_id = $1 AND s.id = page.id ${PERSON_INTENT}
        ORDER BY ${BY_START.orderBy('page.')}`,
      where.params,
    );
  }

  /**
   * The exact total of an email substring search (EMAIL_SEARCH): counted through the grams index up
   * to the organization's limit, and past it on the list index (all the organization's entries).
   */
  async searchCount(
    organizationId: string,
    query: SessionSearchQuery,
    limits: EmailSearchLimits | null,
  ): Promise<number> {
    if (limits !== null) {
      const where = this.searchFilters(organizationId, query, limits.grams);
      const [found]: { total: string }[] = await this.db.query(
        `SELECT count(*) AS total FROM (SELECT FROM session_emails s WHERE ${where.toSql()} LIMIT ${where.param(limits.count + 1)}) found`,
        where.params,
      );
      if (Number(found.total) <= limits.count) return Number(found.total);
    }
    const where = this.searchFilters(organizationId, query, null);
    const [row]: { total: string }[] = await this.db.query(
      `SELECT count(*) AS total FROM session_emails s WHERE ${where.toSql()}`,
      where.params,
    );
    return Number(row.total);
  }

  /**
   * The most matches a page and a count take through the grams index, from the organization's
   * visible sessions N (per-month counts), and the grams they ask for: of the substring's grams, by
   * the organization's sampled shares (searchedGrams). Null when the substring is shorter than a gram.
   */
  async emailSearchLimits(organizationId: string, email: string): Promise<EmailSearchLimits | null> {
    if ([...email].length < GRAM_LENGTH) return null;
    const [row]: { sessions: string; sampled: boolean; grams: GramShare[] }[] = await this.db.query(
      `SELECT (SELECT coalesce(sum(c.sessions), 0) FROM ${bucketCounts('month', '$1')}) AS sessions,
              EXISTS (SELECT FROM session_email_gram_samples WHERE organization_id = $1) AS sampled,
              (SELECT json_agg(json_build_object('hash', g.hash::text, 'entries', coalesce(sh.entries, 0)) ORDER BY g.at)
                 FROM unnest(session_email_grams($1, $2)) WITH ORDINALITY AS g(hash, at)
                 LEFT JOIN session_email_gram_shares sh ON sh.organization_id = $1 AND sh.gram = g.hash) AS grams`,
      [organizationId, email.toLowerCase()],
    );
    const sessions = Number(row.sessions);
    return {
      page: Math.floor(Math.sqrt(sessions)),
      count: Math.floor(sessions / COUNT_ENTRIES_PER_MATCH),
      grams: searchedGrams(row.grams, row.sampled),
    };
  }

  /**
   * A sample of the organization's searchable emails (session_emails) and, per gram, in how many of
   * them it occurs (kept from MIN_GRAM_ENTRIES): about GRAM_SAMPLE_SIZE emails, those whose session id
   * hashes to a multiple of N / GRAM_SAMPLE_SIZE (N its visible sessions now, which it returns for the
   * sweep to compare later): spread over the whole organization whatever its ids or start times, and the
   * same sample of the same rows. It reads the organization's entries of session_emails_list_idx once.
   */
  async sampleEmailGrams(organizationId: string): Promise<EmailGramSample> {
    const [row]: { sessions: string; entries: number; shares: EmailGramSample['shares'] | null }[] =
      await this.db.query(
        `WITH visible AS (SELECT coalesce(sum(c.sessions), 0)::bigint AS sessions FROM ${bucketCounts('month', '$1')}),
         sampled AS (
           SELECT s.email_key FROM session_emails s CROSS JOIN visible
            WHERE s.organization_id = $1 AND hashtextextended(s.id::text, 0) % greatest(1, visible.sessions / $2::int) = 0),
         shares AS (
           SELECT g.gram, count(*) AS entries
             FROM sampled CROSS JOIN LATERAL (SELECT DISTINCT unnest(session_email_grams($1, sampled.email_key))) AS g(gram)
            GROUP BY g.gram HAVING count(*) >= $3)
         SELECT (SELECT sessions FROM visible) AS sessions,
                (SELECT count(*)::int FROM sampled) AS entries,
                (SELECT json_agg(json_build_object('gram', gram::text, 'entries', entries)) FROM shares) AS shares`,
        [organizationId, GRAM_SAMPLE_SIZE, MIN_GRAM_ENTRIES],
      );
    return { sessions: Number(row.sessions), entries: row.entries, shares: row.shares ?? [] };
  }

  /**
   * Replaces the organization's gram shares with `sample`'s, then records the sample. Not one
   * transaction: a search between the statements reads a mix of old and new shares, which changes
   * only which grams it asks for (its rows are rechecked by LIKE); a failure before the last leaves
   * the sample stale, so the sweep samples again.
   */
  async saveEmailGramSample(organizationId: string, sample: EmailGramSample, at: Date): Promise<void> {
    const grams = sample.shares.map((share) => share.gram);
    await this.db.query(
      `INSERT INTO session_email_gram_shares (organization_id, gram, entries)
       SELECT $1, s.gram, s.entries FROM unnest($2::bigint[], $3::int[]) AS s(gram, entries)
       ON CONFLICT (organization_id, gram) DO UPDATE SET entries = EXCLUDED.entries`,
      [organizationId, grams, sample.shares.map((share) => share.entries)],
    );
    await this.db.query(
      `DELETE FROM session_email_gram_shares WHERE organization_id = $1 AND gram <> ALL ($2::bigint[])`,
      [organizationId, grams],
    );
    await this.db.query(
      `INSERT INTO session_email_gram_samples (organization_id, sessions, entries, sampled_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id) DO UPDATE
         SET sessions = EXCLUDED.sessions, entries = EXCLUDED.entries, sampled_at = EXCLUDED.sampled_at`,
      [organizationId, sample.sessions, sample.entries, at],
    );
  }

  /**
   * Up to `limit` organizations whose emails want sampling: never sampled and with at least
   * `fromSessions` visible sessions, or sampled when their visible sessions were a quarter more or
   * fewer than now (compacted per-month counts).
   */
  async emailGramSamplesDue(fromSessions: number, limit: number): Promise<string[]> {
    const rows: { organization_id: string }[] = await this.db.query(
      `SELECT c.organization_id
         FROM (SELECT organization_id, sum(sessions) AS sessions FROM session_counts GROUP BY organization_id) c
         LEFT JOIN session_email_gram_samples s ON s.organization_id = c.organization_id
        WHERE (s.organization_id IS NULL AND c.sessions >= $1) OR abs(c.sessions - s.sessions) * 4 > s.sessions
        ORDER BY c.organization_id LIMIT $2`,
      [fromSessions, limit],
    );
    return rows.map((row) => row.organization_id);
  }

  /**
   * The `page` CTE (ids and sort keys of the page) over `where` on `table` (as s), whose first
   * parameter is the organization: after the window's keyset, or from its offset.
   */
  private pageSql(
    where: SqlConditions,
    query: SessionListQuery,
    window: PageWindow,
    table: 'sessions' | 'session_emails' = 'sessions',
  ): string {
    const key = table === 'sessions' ? sessionSortKey(query) : BY_START;
    const after = window.after === null ? '' : ` AND ${key.after(window.after, (value) => where.param(value))}`;
    const limit = where.param(window.limit);
    const offset = where.param(window.skip);
    if (!seeks(query, window, table)) {
      return `WITH page AS (
        SELECT ${key.names()} FROM ${table} s WHERE ${where.toSql()}${after}
         ORDER BY ${key.orderBy()} LIMIT ${limit} OFFSET ${offset})`;
    }
    return `WITH ${this.seekSql(where, query, offset)},
      page AS (
        SELECT s.id, s.start_time FROM sessions s
         WHERE ${where.toSql()} AND s.start_time < (SELECT before AT TIME ZONE 'UTC' FROM seek)
         ORDER BY s.start_time DESC, s.id DESC LIMIT ${limit} OFFSET (SELECT (${offset} - skipped)::bigint FROM seek))`;
  }

  /**
   * The CTE `seek` (before, skipped) of a deep offset: the end of the UTC hour that holds the
   * offset's session and how many sessions start at or after it, so that the page skips at most an
   * hour of index entries, at any size. Its month comes from the monthly counts (a few dozen rows per
   * month), the day within it and the hour within that from the finer counts (seekStep), or without
   * an enum filter from their totals (a row per day or hour); where those do not add up, the seek
   * stops a step earlier.
   */
  private seekSql(where: SqlConditions, query: SessionListQuery, offset: string): string {
    const facets = this.facets(new SqlConditions(where.params), 'c', query).toSql();
    const byFacets = facets !== '';
    const filtered = facets || 'true';
    const months = `SELECT c.at, sum(c.sessions) AS n FROM ${bucketCounts('month', '$1')} WHERE ${filtered} GROUP BY c.at`;
    const within = (unit: CountUnit, outer: string, outerUnit: CountUnit) =>
      `SELECT c.at, sum(c.sessions) AS n FROM ${outer} o
         CROSS JOIN LATERAL ${bucketCounts(unit, '$1', { from: 'o.at', to: `o.at + interval '1 ${outerUnit}'` }, byFacets)}
        WHERE ${filtered} GROUP BY c.at`;
    return `${seekStep('month_seek', months, offset, null)},
      ${seekStep('day_seek', within('day', 'month_seek', 'month'), offset, 'month_seek')},
      ${seekStep('hour_seek', within('hour', 'day_seek', 'day'), offset, 'day_seek')},
      seek AS (
        SELECT coalesce(h.at + interval '1 hour', d.at + interval '1 day', m.at + interval '1 month') AS before,
               coalesce(h.skipped, d.skipped, m.skipped) AS skipped
          FROM month_seek m LEFT JOIN day_seek d ON true LEFT JOIN hour_seek h ON true)`;
  }

  /**
   * The exact total as an SQL expression whose values go into `params`: it sums the per-month counts
   * of the whole months in range and counts only the partial months at its edges from sessions_list_idx.
   */
  private totalSql(params: unknown[], organizationId: string, query: SessionListQuery): string {
    // The per-month counts know nothing of updatedAt: a sync counts its rows (sessions_updated_idx).
    const months =
      query.updated_since === undefined ? wholeMonthsWithin(query.start_time_from, query.start_time_to) : null;
    if (!months)
      return `(SELECT count(*) FROM sessions s WHERE ${this.filters(organizationId, query, params).toSql()})`;
    const organization = new SqlConditions(params).param(organizationId);
    const counted = this.facets(new SqlConditions(params), 'c', query)
      .addIf(`c.at >= ($?::timestamptz AT TIME ZONE 'UTC')`, months.start)
      .addIf(`c.at < ($?::timestamptz AT TIME ZONE 'UTC')`, months.end);
    const parts = [
      `SELECT sum(c.sessions) FROM ${bucketCounts('month', organization)} WHERE ${counted.toSql() || 'true'}`,
    ];
    if (query.start_time_from && months.start) {
      const below = this.filters(organizationId, { ...query, start_time_to: undefined }, params).add(
        's.start_time < $?',
        months.start,
      );
      parts.push(`SELECT count(*) FROM sessions s WHERE ${below.toSql()}`);
    }
    if (query.start_time_to && months.end) {
      const above = this.filters(organizationId, { ...query, start_time_from: months.end }, params);
      parts.push(`SELECT count(*) FROM sessions s WHERE ${above.toSql()}`);
    }
    return `(${parts.map((part) => `coalesce((${part}), 0)`).join(' + ')})`;
  }

  private filters(organizationId: string, query: SessionListQuery, params: unknown[] = []): SqlConditions {
    return this.rangeAndFacets(
      new SqlConditions(params).add(`s.organization_id = $? AND ${VISIBLE}`, organizationId),
      query,
    )
      .addIf('s.updated_at >= $?', query.updated_since)
      .addIf(`s.email_key LIKE $? ESCAPE '\\'`, query.email === undefined ? undefined : containsPattern(query.email));
  }

  /**
   * The filters of an email substring search over session_emails (as s), which holds only visible
   * sessions with an email; `grams` (hashes), when given, the grams the email must contain
   * (session_emails_grams_idx), which LIKE then rechecks.
   */
  private searchFilters(organizationId: string, query: SessionSearchQuery, grams: string[] | null): SqlConditions {
    const where = this.rangeAndFacets(new SqlConditions().add('s.organization_id = $?', organizationId), query).add(
      `s.email_key LIKE $? ESCAPE '\\'`,
      containsPattern(query.email),
    );
    return grams === null
      ? where
      : where.add('session_email_grams(s.organization_id, s.email_key) @> $?::bigint[]', grams);
  }

  private rangeAndFacets(where: SqlConditions, query: SessionListQuery): SqlConditions {
    where.addIf('s.start_time >= $?', query.start_time_from).addIf('s.start_time <= $?', query.start_time_to);
    return this.facets(where, 's', query);
  }

  /** The subject's sessions, visible or not: their ids and the personal values they hold (erasure). */
  async ofSubject(
    organizationId: string,
    subject: DataSubject,
  ): Promise<Pick<Row<'sessions'>, 'id' | 'email' | 'name' | 'phone'>[]> {
    const params: unknown[] = [organizationId];
    return this.db.query(
      `SELECT id, email, name, phone FROM sessions WHERE organization_id = $1 AND ${selectionSql({ subject }, params)}`,
      params,
    );
  }

  /** The enum filters, which both sessions and their counts carry. */
  private facets(where: SqlConditions, alias: string, query: SessionListQuery): SqlConditions {
    return where
      .addIf(`${alias}.effective_qualification_status = ANY($?)`, query.qualification_status)
      .addIf(`${alias}.buying_intent = ANY($?)`, query.buying_intent)
      .addIf(`${alias}.booked_status = ANY($?)`, query.booked_status);
  }
}

const BY_START = new SortKey([
  { sql: 's.start_time', type: 'timestamptz', descending: true },
  { sql: 's.id', type: 'uuid', descending: true },
]);
const BY_UPDATE = new SortKey([
  { sql: 's.updated_at', type: 'timestamptz', descending: false },
  { sql: 's.id', type: 'uuid', descending: false },
]);

/** Newest first (sessions_list_idx), or (updatedAt, id) ascending for a sync (sessions_updated_idx). */
const sessionSortKey = (query: SessionListQuery): SortKey => (query.updated_since === undefined ? BY_START : BY_UPDATE);

/** Whether a page of `table` seeks its offset's hour first (seekSql): deep, newest first, over every start time. */
const seeks = (query: SessionListQuery, window: PageWindow, table: 'sessions' | 'session_emails'): boolean =>
  window.skip >= SEEK_FROM_OFFSET &&
  sessionSortKey(query) === BY_START &&
  table === 'sessions' &&
  !query.start_time_from &&
  !query.start_time_to;

/** Which sessions a deletion picks: those started before a cutoff (retention) or a subject's (erasure). */
export type SessionSelection = { startedBefore: Date } | { subject: DataSubject };

/** The selection as a condition on `alias`'s columns, its values pushed onto `params`. */
function selectionSql(selection: SessionSelection, params: unknown[], alias = 'sessions'): string {
  if ('startedBefore' in selection)
    return `${alias}.start_time < $${params.push(selection.startedBefore.toISOString())}`;
  const { emailKey, phoneDigits } = selection.subject;
  const byEmail = emailKey === null ? null : `${alias}.email_key = $${params.push(emailKey)}`;
  const byPhone =
    phoneDigits === null
      ? null
      : `(${alias}.phone IS NOT NULL AND ${phoneDigitsSql(`${alias}.phone`)} = $${params.push(phoneDigits)})`;
  return `(${[byEmail, byPhone].filter(Boolean).join(' OR ') || 'false'})`;
}
