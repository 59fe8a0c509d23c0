import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import request from 'supertest';
import {
  compactSessionCounts,
  holdCompactions,
  insertLinks,
  insertPreciseSessions,
  insertSessions,
  oracleCampaignEngagement,
  oracleCountFrom,
  oracleSessionCount,
  oracleSessionPage,
  pendingDeltas,
  sessionCountDrift,
  sessionEmailDrift,
  type SessionFilters,
  VISIBLE,
} from './support/aggregates';
import type {
  Campaign,
  EventInput,
  EventType,
  EventsAnswer,
  Job,
  JobEnvelope,
  JobItemPage,
  Link,
  LinkUpdate,
  SessionPage,
} from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { deleteSessionRows, updateSessionRows } from './support/session-writes';
import { folded } from './support/fold';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';
import { CountCache } from '../src/common/pagination/count-cache';
import { EmailGramSamples } from '../src/modules/sessions';
import { SESSION_LIST } from '../src/modules/sessions/session-list';
import { SessionsRepository } from '../src/modules/sessions/sessions.repository';

/**
 * The derived aggregates, proven exact through HTTP against oracles over the source rows (the session
 * counts and the email search are written with the sessions: SessionsRepository.writeDerived):
 * - session totals (GET /sessions pagination.total) and deep offsets, from session_counts plus
 *   pending session_count_deltas (migration SessionCounts), with pending deltas only, after
 *   compaction, after writes through the API and SQL (negative deltas), and under concurrency;
 * - the email search (GET /sessions?email=…) from session_emails (migration SessionEmailSearch),
 *   row for row and page for page, after the same writes;
 * - campaign engagement (GET /custom-link-campaigns/{id}/engagement) from campaign_engagement
 *   (migration CampaignEngagementRollup; kept by the links' writers since LinkDerivedWrites) through
 *   events, moves, unfiling, campaign deletion, concurrency.
 */
jest.setTimeout(120_000);

const SESSIONS = '/api/v1/sessions';
const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const LINKS = '/api/v1/custom-links';
const EVENTS = '/api/v1/events';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const LIMITS = { RATE_LIMIT_PER_MINUTE: '1000000', LINK_MUTATIONS_PER_MINUTE: '1000000' };

type Query = Record<string, string | number>;

/** Runs `work` over `items`, `width` at a time. */
async function inChunks<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

/** A small seeded PRNG (mulberry32), so a failing run can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}

const SEED = Number(process.env.AGGREGATES_SEED ?? 20260301);

// ---------------------------------------------------------------------------------------------
// Session totals
// ---------------------------------------------------------------------------------------------

/** Enum filters: each alone, lists, and combined. */
const FACET_FILTERS: SessionFilters[] = [
  {},
  { qualification_status: 'qualified' },
  { qualification_status: 'unqualified' },
  { qualification_status: 'qualified,unqualified' },
  { buying_intent: 'high' },
  { buying_intent: 'medium' },
  { buying_intent: 'low' },
  { buying_intent: 'none' },
  { buying_intent: 'high,low' },
  { buying_intent: 'medium,none,high' },
  { buying_intent: 'high,medium,low,none' },
  { booked_status: 'booked' },
  { booked_status: 'not_booked' },
  { booked_status: 'booked,not_booked' },
  { qualification_status: 'qualified', buying_intent: 'high' },
  { qualification_status: 'unqualified', booked_status: 'booked' },
  { qualification_status: 'qualified', buying_intent: 'high,medium', booked_status: 'not_booked' },
];

/** Email substrings of the bulk rows (bulk<n>@agg<seed>.test) and of those ingested through the API (…@agg-api.test). */
const EMAIL_FILTERS = ['bulk7', 'BULK29@', '@agg1.', 'agg-api', 'again1', 'moved@', 'nobody'];

/** start_time ranges: within a month, across months, on boundaries and 1 ms either side, open-ended, from > to. */
const RANGES: SessionFilters[] = [
  { start_time_from: '2025-06-03T00:00:00Z', start_time_to: '2025-06-20T12:00:00Z' },
  { start_time_from: '2025-03-15T07:00:00Z', start_time_to: '2025-11-02T00:00:00Z' },
  { start_time_from: '2025-07-01T00:00:00Z', start_time_to: '2026-03-01T00:00:00Z' },
  { start_time_from: '2025-07-01T00:00:00.001Z', start_time_to: '2026-02-28T23:59:59.999Z' },
  { start_time_from: '2025-06-30T23:59:59.999Z', start_time_to: '2026-03-01T00:00:00.001Z' },
  { start_time_from: '2026-03-01T00:00:00Z' },
  { start_time_from: '2026-03-01T00:00:00.001Z' },
  { start_time_from: '2026-02-28T23:59:59.999Z' },
  { start_time_to: '2026-03-01T00:00:00Z' },
  { start_time_to: '2026-02-28T23:59:59.999Z' },
  { start_time_to: '2026-03-01T00:00:00.001Z' },
  { start_time_to: '2025-01-01T00:00:00Z' },
  { start_time_from: '2026-03-01T00:00:00Z', start_time_to: '2026-03-01T00:00:00Z' },
  { start_time_from: '2025-09-01T00:00:00Z', start_time_to: '2025-09-30T23:59:59.999Z' },
  { start_time_from: '2025-09-01T00:00:00Z', start_time_to: '2025-10-01T00:00:00Z' },
  { start_time_from: '2025-12-31T23:59:59.999Z', start_time_to: '2026-01-01T00:00:00Z' },
  { start_time_from: '2026-03-01T01:00:00+01:00', start_time_to: '2026-04-30T20:00:00-04:00' },
  { start_time_from: '2025-05-01', start_time_to: '2025-08-31' },
  { start_time_from: '2026-01-10T00:00:00Z', start_time_to: '2025-12-01T00:00:00Z' },
  { start_time_from: '2026-03-01T00:00:00.001Z', start_time_to: '2026-03-01T00:00:00Z' },
  { start_time_from: '2000-01-01T00:00:00Z', start_time_to: '2100-01-01T00:00:00Z' },
  { start_time_from: '2026-03-31T23:59:59.999Z', start_time_to: '2026-04-01T00:00:00Z' },
  { start_time_to: '2026-03-31T23:59:59.999Z' },
  { start_time_from: '2026-04-01T00:00:00Z' },
  { start_time_from: '1900-01-01T00:00:00Z', start_time_to: '1999-12-31T23:59:59.999Z' },
];
/** Facet sets each range is also combined with. */
const RANGE_FACETS: SessionFilters[] = [
  {},
  { qualification_status: 'qualified' },
  { buying_intent: 'high,medium', booked_status: 'booked' },
];

/** Sessions exactly on UTC month, day and hour boundaries, 1 ms or 1 µs either side, and one in 1925. */
const PRECISE = [
  { at: '2026-03-01T00:00:00Z' },
  { at: '2026-03-01T00:00:00Z', q: 'unqualified', intent: null, booked: 'not_booked' },
  { at: '2026-03-01T00:00:00Z', environment: 'staging' },
  { at: '2026-03-01T00:00:00Z', analysis: 'pending' },
  { at: '2026-02-28T23:59:59.999Z', q: null, intent: 'low', booked: null },
  { at: '2026-03-01T00:00:00.001Z', intent: 'medium' },
  { at: '2025-07-01T00:00:00Z', q: 'unqualified' },
  { at: '2025-06-30T23:59:59.999Z' },
  { at: '2025-07-01T00:00:00.001Z', booked: 'not_booked' },
  { at: '2026-01-01T00:00:00Z', intent: 'none' },
  { at: '2025-12-31T23:59:59.999Z', q: null },
  { at: '2026-03-31T23:59:59.999500Z' },
  { at: '2026-04-01T00:00:00.000400Z', intent: 'low' },
  { at: '1925-06-15T12:00:00Z' },
  // On day and hour edges inside a month, and a microsecond either side.
  { at: '2025-10-15T00:00:00Z', intent: 'low' },
  { at: '2025-10-14T23:59:59.999999Z', q: null },
  { at: '2025-10-15T13:00:00Z', booked: 'not_booked' },
  { at: '2025-10-15T13:00:00Z' },
  { at: '2025-10-15T12:59:59.999999Z', intent: 'medium' },
  { at: '2025-10-15T13:00:00.000001Z', q: 'unqualified' },
];

/**
 * Day and hour edges a deep page straddles (the seek's finer steps, migration SessionSeekCounts):
 * inside months, where the month seek alone would skip further, and the first hour of a month.
 */
const FINER_EDGES = [
  '2025-03-03T00:00:00Z',
  '2025-04-07T23:00:00Z',
  '2025-10-15T00:00:00Z',
  '2025-10-15T13:00:00Z',
  '2025-10-15T14:00:00Z',
  '2025-10-16T00:00:00Z',
  '2026-01-20T05:00:00Z',
  '2026-02-01T01:00:00Z',
  '2026-02-28T00:00:00Z',
];

/** Deep-offset queries: no filter and enum filters whose totals exceed 10,000 (and one that does not). */
const DEEP_FILTERS: SessionFilters[] = [
  {},
  { qualification_status: 'qualified,unqualified' },
  { buying_intent: 'high,medium,low,none', booked_status: 'booked,not_booked' },
  { booked_status: 'not_booked' },
  { qualification_status: 'qualified' },
];

describe('session totals and deep offsets (session_counts + session_count_deltas)', () => {
  let t: TestApp;
  let t2: TestApp;
  let pool: Pool;
  let a: Tenant;
  let b: Tenant;
  /** Range filters built from stored start times (an inclusive upper bound equal to a session's start_time). */
  let exactRanges: SessionFilters[] = [];
  /** Sessions ingested through the API: id → last body. */
  const ingested = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    [t, t2] = await Promise.all([createTestApp(LIMITS), createTestApp(LIMITS)]);
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 8 });
    [a, b] = await Promise.all([t.createTenant(), t.createTenant()]);
  });
  afterAll(async () => {
    await pool?.end();
    await Promise.all([t?.close(), t2?.close()]);
  });

  const list = async (who: Tenant, query: Query): Promise<SessionPage> =>
    (await request(t.server).get(SESSIONS).set('Authorization', `Bearer ${who.key}`).query(query).expect(200))
      .body as SessionPage;
  const put = async (app: TestApp, who: Tenant, id: string, body: Record<string, unknown>) => {
    await ingest(app.server, who.key, id, body).expect(200);
    ingested.set(id, body);
  };

  /** Every filter case for A; for B (whose rows must never reach A's totals, nor its own be lost) the enum filters and bare ranges. */
  const totalCases = (): [string, Tenant, SessionFilters][] => {
    const ranges = [...RANGES, ...exactRanges];
    const ofA = [
      ...FACET_FILTERS,
      ...ranges.flatMap((range) => RANGE_FACETS.map((facets) => ({ ...range, ...facets }))),
    ];
    const ofB = [...FACET_FILTERS, ...ranges];
    return [
      ...ofA.map((q): [string, Tenant, SessionFilters] => ['A', a, q]),
      ...ofB.map((q): [string, Tenant, SessionFilters] => ['B', b, q]),
    ];
  };

  /** pagination.total of GET /sessions against count(*) for every filter case of both organizations. */
  async function expectTotals(): Promise<void> {
    const mismatches: string[] = [];
    await inChunks(totalCases(), 12, async ([name, who, q]) => {
      const [page, expected] = await Promise.all([
        list(who, { ...q, limit: 1 } as Query),
        oracleSessionCount(pool, who.organizationId, q),
      ]);
      if (page.pagination.total !== expected)
        mismatches.push(`org ${name} ${JSON.stringify(q)}: api ${page.pagination.total}, oracle ${expected}`);
    });
    expect(mismatches).toEqual([]);
  }

  /** Pages at offsets >= 10,000 (month, day and hour edges, the last page, total-1, total, beyond) against the oracle's ids. */
  async function expectDeepPages(who: Tenant): Promise<void> {
    const mismatches: string[] = [];
    const monthStarts = Array.from({ length: 18 }, (_, i) => new Date(Date.UTC(2025, i, 1)).toISOString());
    for (const q of DEEP_FILTERS) {
      const total = await oracleSessionCount(pool, who.organizationId, q);
      const pages: [offset: number, limit: number][] = [
        [9_999, 3],
        [10_000, 50],
        [10_001, 7],
        [12_345, 200],
        [total - 200, 200],
        [total - 7, 10],
        [total - 1, 5],
        [total, 5],
        [total + 1, 5],
        [total + 5_000, 50],
        [1_000_000, 200],
      ];
      for (const start of [...monthStarts, ...FINER_EDGES]) {
        const newer = await oracleCountFrom(pool, who.organizationId, q, start);
        // A page that straddles the edge, and one that starts at the older bucket's first row.
        pages.push([newer - 3, 7], [newer, 4]);
      }
      await inChunks(
        pages.filter(([offset]) => offset >= 9_999 && offset <= 1_000_000),
        4,
        async ([offset, limit]) => {
          const [page, ids] = await Promise.all([
            list(who, { ...q, offset, limit } as Query),
            oracleSessionPage(pool, who.organizationId, q, offset, limit),
          ]);
          const got = page.sessions.map((s) => s.id);
          if (JSON.stringify(got) !== JSON.stringify(ids))
            mismatches.push(
              `${JSON.stringify(q)} offset ${offset} limit ${limit}: api [${got.length}] ${got.slice(0, 3).join(',')}…, oracle [${ids.length}] ${ids.slice(0, 3).join(',')}…`,
            );
          if (page.pagination.total !== total)
            mismatches.push(`${JSON.stringify(q)} offset ${offset}: total ${page.pagination.total}, oracle ${total}`);
        },
      );
    }
    expect(mismatches).toEqual([]);
  }

  const expectNoDrift = async () => {
    expect(await sessionCountDrift(pool)).toEqual([]);
    expect(await sessionEmailDrift(pool)).toEqual([]);
    await expectEmailPages();
  };

  /**
   * First pages and totals of email substring searches (session_emails), alone and with facets and
   * ranges, against the oracle's: the substrings match from none to most of an organization, so both
   * of the search's paths (grams index, list index walk) answer pages and counts.
   */
  async function expectEmailPages(): Promise<void> {
    const mismatches: string[] = [];
    const cases: [Tenant, SessionFilters][] = [a, b].flatMap((who) =>
      EMAIL_FILTERS.flatMap((email) => [
        { email },
        ...RANGE_FACETS.slice(1).map((facets) => ({ ...facets, email })),
        { ...RANGES[1], email },
      ]).map((q): [Tenant, SessionFilters] => [who, q]),
    );
    await inChunks(cases, 8, async ([who, q]) => {
      const [page, ids, total] = await Promise.all([
        list(who, { ...q, limit: 50 } as Query),
        oracleSessionPage(pool, who.organizationId, q, 0, 50),
        oracleSessionCount(pool, who.organizationId, q),
      ]);
      const got = page.sessions.map((s) => s.id);
      if (JSON.stringify(got) !== JSON.stringify(ids))
        mismatches.push(
          `${JSON.stringify(q)}: api [${got.length}] ${got.slice(0, 3).join(',')}…, oracle [${ids.length}] ${ids.slice(0, 3).join(',')}…`,
        );
      if (page.pagination.total !== total)
        mismatches.push(`${JSON.stringify(q)}: total api ${page.pagination.total}, oracle ${total}`);
    });
    expect(mismatches).toEqual([]);
  }

  it('(a) bulk sessions with only pending deltas: every total, deep page and count row is exact', async () => {
    const release = await holdCompactions(pool, a.organizationId);
    try {
      await Promise.all([
        insertSessions(pool, a.organizationId, {
          count: 20_000,
          first: '2025-01-01T00:00:00Z',
          stepSeconds: 6_280,
          seed: 1,
        }),
        insertSessions(pool, b.organizationId, {
          count: 4_000,
          first: '2025-03-10T00:00:00Z',
          stepSeconds: 20_000,
          seed: 4,
        }),
        insertPreciseSessions(pool, a.organizationId, PRECISE),
        insertPreciseSessions(pool, b.organizationId, PRECISE.slice(0, 6)),
      ]);
      await pool.query('ANALYZE sessions');
      const { rows } = await pool.query<{ at: Date }>(
        `SELECT start_time AS at FROM sessions WHERE organization_id = $1 AND environment = 'production' AND analysis_status = 'analyzed'
            AND start_time BETWEEN '2025-10-10' AND '2025-10-20' ORDER BY start_time LIMIT 1`,
        [a.organizationId],
      );
      const exact = rows[0].at.toISOString();
      exactRanges = [
        { start_time_to: exact },
        { start_time_from: exact },
        { start_time_from: '2025-08-15T00:00:00Z', start_time_to: exact },
        { start_time_from: exact, start_time_to: exact },
      ];

      // The hold works: a compaction now waits (here, until its statement timeout).
      const probe = await pool.connect();
      try {
        await probe.query('BEGIN');
        await probe.query(`SET LOCAL statement_timeout = '300ms'`);
        await expect(probe.query('SELECT compact_session_counts()')).rejects.toMatchObject({ code: '57014' });
      } finally {
        await probe.query('ROLLBACK');
        probe.release();
      }
      // Nothing compacted yet: totals come from the deltas alone.
      const state = await pendingDeltas(pool, a.organizationId);
      expect(state.compacted).toBe(0);
      expect(state.rows).toBeGreaterThan(100);
      expect(await oracleSessionCount(pool, a.organizationId, {})).toBeGreaterThan(18_000);
      expect(
        new Set(
          (
            await pool.query(
              `SELECT date_trunc('month', start_time AT TIME ZONE 'UTC') FROM sessions WHERE organization_id = $1`,
              [a.organizationId],
            )
          ).rows.map((r) => String(Object.values(r)[0])),
        ).size,
      ).toBeGreaterThanOrEqual(14);

      await expectTotals();
      await expectDeepPages(a);
      await expectNoDrift();
      expect((await pendingDeltas(pool, a.organizationId)).compacted).toBe(0);
    } finally {
      await release();
    }
  });

  it('(b) after compact_session_counts(): every total, deep page and count row is exact', async () => {
    await compactSessionCounts(pool);
    const state = await pendingDeltas(pool, a.organizationId);
    expect(state).toMatchObject({ rows: 0 });
    expect(state.compacted).toBeGreaterThan(100);
    await expectTotals();
    await expectDeepPages(a);
    await expectNoDrift();
  });

  it('(b) email gram shares: the sweep samples the organization past 10,000 sessions only; its searches then ask for three grams and stay exact; a quarter more sessions samples it again', async () => {
    const samples = t.app.get(EmailGramSamples);
    const sampleOf = async (who: Tenant) =>
      (
        await pool.query<{ sessions: string; entries: number; sampled_at: Date }>(
          `SELECT sessions, entries, sampled_at FROM session_email_gram_samples WHERE organization_id = $1`,
          [who.organizationId],
        )
      ).rows[0];
    await samples.sweep();
    const sample = await sampleOf(a);
    expect(Number(sample.sessions)).toBe(await oracleSessionCount(pool, a.organizationId, {}));
    expect(sample.entries).toBeGreaterThan(5_000);
    expect(sample.entries).toBeLessThan(20_000);
    expect(await sampleOf(b)).toBeUndefined();
    const { rows: shares } = await pool.query<{ entries: number }>(
      `SELECT entries FROM session_email_gram_shares WHERE organization_id = $1`,
      [a.organizationId],
    );
    expect(shares.length).toBeGreaterThan(10);
    expect(Math.min(...shares.map((share) => share.entries))).toBeGreaterThanOrEqual(2);
    expect(Math.max(...shares.map((share) => share.entries))).toBeLessThanOrEqual(sample.entries);

    const repository = t.app.get(SessionsRepository);
    expect((await repository.emailSearchLimits(a.organizationId, 'BULK29@agg'))?.grams).toHaveLength(3);
    expect((await repository.emailSearchLimits(b.organizationId, 'BULK29@agg'))?.grams).toHaveLength(8);
    await t.app.get(CountCache).invalidate(a.organizationId, SESSION_LIST);
    await expectEmailPages();

    // Not due again until its visible sessions move by a quarter.
    await samples.sweep();
    expect((await sampleOf(a)).sampled_at).toEqual(sample.sampled_at);
    await pool.query(`UPDATE session_email_gram_samples SET sessions = $2 WHERE organization_id = $1`, [
      a.organizationId,
      Math.floor(Number(sample.sessions) / 1.3),
    ]);
    await samples.sweep();
    expect(await sampleOf(a)).toMatchObject({ sessions: sample.sessions, entries: sample.entries });
    expect((await sampleOf(a)).sampled_at.getTime()).toBeGreaterThan(sample.sampled_at.getTime());
  });

  it('bounds in years 0000-0099 (accepted by the timestamp parser) count like any other bound', async () => {
    // The 1925 session lies after every one of these upper bounds.
    const mismatches: string[] = [];
    for (const q of [
      { start_time_to: '0026-03-01T00:00:00Z' },
      { start_time_to: '0099-12-31T23:59:59.999Z' },
      { start_time_from: '0010-01-01T00:00:00Z', start_time_to: '0050-06-01T00:00:00Z' },
      { start_time_from: '0010-01-15T00:00:00Z' },
      { start_time_from: '0000-01-01T00:00:00Z', start_time_to: '0000-12-31T23:59:59.999Z' },
      { start_time_from: '9999-12-15T00:00:00Z' },
      { start_time_from: '9999-11-15T00:00:00Z', start_time_to: '9999-12-31T23:59:59.999Z' },
    ] as SessionFilters[]) {
      const [page, expected] = await Promise.all([
        list(a, { ...q, limit: 1 } as Query),
        oracleSessionCount(pool, a.organizationId, q),
      ]);
      if (page.pagination.total !== expected)
        mismatches.push(`${JSON.stringify(q)}: api ${page.pagination.total}, oracle ${expected}`);
    }
    expect(mismatches).toEqual([]);
  });

  /** An ingestion body at `startTime` (10 minutes long) with these overrides. */
  const bodyAt = (startTime: string, overrides: Record<string, unknown> = {}) =>
    sessionBody({ startTime, endTime: new Date(new Date(startTime).getTime() + 600_000).toISOString(), ...overrides });

  /** Random new sessions across months (some exactly on a boundary), facets with NULLs, some hidden; some share bulk emails. */
  function randomBodies(n: number, seed: number): { id: string; body: Record<string, unknown> }[] {
    const rnd = prng(seed);
    const days = [
      '2025-02-14',
      '2025-05-20',
      '2025-07-01',
      '2025-10-31',
      '2026-01-01',
      '2026-02-28',
      '2026-03-01',
      '2026-04-15',
      '2024-12-31',
    ];
    return Array.from({ length: n }, (_, i) => {
      const time =
        i % 5 === 0
          ? '00:00:00.000'
          : `${String(rnd.int(24)).padStart(2, '0')}:${String(rnd.int(60)).padStart(2, '0')}:${String(rnd.int(60)).padStart(2, '0')}.${String(rnd.int(1000)).padStart(3, '0')}`;
      return {
        id: newSessionId(),
        body: bodyAt(`${rnd.pick(days)}T${time}Z`, {
          // A shared email makes the person rollup rewrite the bulk rows' effective qualification.
          email: i % 3 === 0 ? `bulk${rnd.int(300)}@agg1.test` : `api${seed}-${i % 40}@agg-api.test`,
          qualificationStatus: rnd.pick(['qualified', 'unqualified', null]),
          buyingIntent: rnd.pick(['high', 'medium', 'low', 'none', null]),
          bookedStatus: rnd.pick(['booked', 'not_booked', null]),
          environment: rnd.int(11) === 0 ? 'staging' : 'production',
          analysisStatus: rnd.int(13) === 0 ? 'pending' : 'analyzed',
        }),
      };
    });
  }

  it('(c) PUT ingestion on top of compacted counts: new sessions, a month change, facet changes, staging → production, production → pending', async () => {
    // First versions, folded into session_counts.
    await inChunks(randomBodies(30, SEED), 6, ({ id, body }) => put(t, a, id, body));
    const [edge, facets, staged, hidden, moved] = Array.from({ length: 5 }, () => newSessionId());
    await put(t, a, edge, bodyAt('2026-02-28T23:59:59.999Z', { email: 'edge@agg-api.test' }));
    await put(
      t,
      a,
      facets,
      bodyAt('2025-09-09T09:00:00.000Z', {
        email: 'facets@agg-api.test',
        buyingIntent: 'high',
        bookedStatus: 'booked',
      }),
    );
    await put(
      t,
      a,
      staged,
      bodyAt('2025-11-11T11:00:00.000Z', { email: 'staged@agg-api.test', environment: 'staging' }),
    );
    await put(t, a, hidden, bodyAt('2025-12-12T12:00:00.000Z', { email: 'hidden@agg-api.test' }));
    await put(
      t,
      a,
      moved,
      bodyAt('2025-04-04T04:00:00.000Z', { email: 'moved@agg-api.test', qualificationStatus: null }),
    );
    await compactSessionCounts(pool);

    const release = await holdCompactions(pool, a.organizationId);
    try {
      await put(t, a, edge, bodyAt('2026-03-01T00:00:00.000Z', { email: 'edge@agg-api.test' }));
      await put(
        t,
        a,
        facets,
        bodyAt('2025-09-09T09:00:00.000Z', {
          email: 'facets@agg-api.test',
          buyingIntent: 'low',
          bookedStatus: 'not_booked',
        }),
      );
      await put(
        t,
        a,
        staged,
        bodyAt('2025-11-11T11:00:00.000Z', { email: 'staged@agg-api.test', environment: 'production' }),
      );
      await put(
        t,
        a,
        hidden,
        bodyAt('2025-12-12T12:00:00.000Z', { email: 'hidden@agg-api.test', analysisStatus: 'pending' }),
      );
      await put(
        t,
        a,
        moved,
        bodyAt('2026-04-20T04:00:00.000Z', { email: 'moved@agg-api.test', qualificationStatus: 'qualified' }),
      );
      await inChunks(randomBodies(20, SEED + 1), 5, ({ id, body }) => put(t, a, id, body));
      const state = await pendingDeltas(pool, a.organizationId);
      expect(state.rows).toBeGreaterThan(0);
      expect(state.negative).toBeGreaterThan(0);
      await expectTotals();
      await expectNoDrift();
    } finally {
      await release();
    }
    await compactSessionCounts(pool);
    expect((await pendingDeltas(pool, a.organizationId)).rows).toBe(0);
    await expectTotals();
    await expectNoDrift();
  });

  it('(c) SQL UPDATE/DELETE with their derived rows (test/support/session-writes.ts) after compaction (negative deltas): totals and deep pages, before and after another compaction', async () => {
    await compactSessionCounts(pool);
    const release = await holdCompactions(pool, a.organizationId);
    try {
      const org = a.organizationId;
      const bulk = (modulus: number, rest: number) =>
        `display_id LIKE 'B-%' AND (substr(display_id, 3)::int) % ${modulus} = ${rest}`;
      // Across month edges, both ways, in UTC (immutable: Citus refuses a stable function of a column in SET).
      await updateSessionRows(
        pool,
        org,
        `start_time = (start_time AT TIME ZONE 'UTC' + interval '20 days') AT TIME ZONE 'UTC'`,
        bulk(61, 5),
      );
      await updateSessionRows(
        pool,
        org,
        `start_time = (start_time AT TIME ZONE 'UTC' - interval '9 days 1 millisecond') AT TIME ZONE 'UTC'`,
        bulk(67, 6),
      );
      // Facets, including to and from NULL.
      await updateSessionRows(
        pool,
        org,
        `buying_intent = CASE WHEN buying_intent IS NULL THEN 'high' WHEN buying_intent = 'none' THEN NULL ELSE 'none' END,
         booked_status = CASE WHEN booked_status = 'booked' THEN 'not_booked' ELSE booked_status END,
         effective_qualification_status = CASE WHEN effective_qualification_status IS NULL THEN 'unqualified' ELSE effective_qualification_status END`,
        bulk(41, 7),
      );
      // Hidden (staging / pending), shown again (pending → analyzed), deleted.
      await updateSessionRows(pool, org, `environment = 'staging'`, bulk(97, 8));
      await updateSessionRows(pool, org, `analysis_status = 'pending'`, bulk(89, 9));
      await updateSessionRows(
        pool,
        org,
        `analysis_status = 'analyzed'`,
        `analysis_status = 'pending' AND (substr(md5(id::text), 1, 1)) < '8'`,
      );
      await deleteSessionRows(pool, org, bulk(53, 10));
      // The boundary sessions go as well.
      await deleteSessionRows(
        pool,
        org,
        `start_time = '2026-03-01T00:00:00Z' AND effective_qualification_status = 'unqualified'`,
      );
      // One statement that both deletes a month's rows' worth and moves others: a multi-row UPDATE changing month and visibility at once.
      await updateSessionRows(
        pool,
        org,
        `start_time = (start_time AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC', environment = CASE WHEN environment = 'production' THEN 'staging' ELSE 'production' END`,
        bulk(101, 11),
      );

      // Out-of-band SQL bumps no count-cache version (only the service's own writes do), so the
      // cached email totals of earlier checks would stand: the step after a manual data fix.
      await t.app.get(CountCache).invalidate(org, SESSION_LIST);

      const state = await pendingDeltas(pool, org);
      expect(state.negative).toBeGreaterThan(20);
      await expectTotals();
      await expectDeepPages(a);
      await expectNoDrift();
    } finally {
      await release();
    }
    await compactSessionCounts(pool);
    expect((await pendingDeltas(pool, a.organizationId)).rows).toBe(0);
    await expectTotals();
    await expectDeepPages(a);
    await expectNoDrift();
  });

  it('100 concurrent PUT ingestions over two instances (new sessions across months, re-ingestions, compactions in between): totals and every count row exact', async () => {
    const fresh = randomBodies(100, SEED + 2);
    // A fifth re-ingest sessions already stored, moving them to another month and facets.
    const earlier = [...ingested.keys()].slice(0, 20);
    const again = earlier.map((id, i) => ({
      id,
      body: bodyAt(`2025-${String(1 + (i % 12)).padStart(2, '0')}-01T00:00:00.000Z`, {
        email: `again${i}@agg-api.test`,
        buyingIntent: 'medium',
        bookedStatus: i % 2 ? 'booked' : null,
      }),
    }));
    const writes = [...fresh, ...again];
    const results = await Promise.all([
      ...writes.map(({ id, body }, i) =>
        ingest((i % 2 === 0 ? t : t2).server, a.key, id, body).then((res) => ({ id, body, status: res.status })),
      ),
      compactSessionCounts(pool).then(() => null),
      compactSessionCounts(pool).then(() => null),
    ]);
    const statuses = results
      .filter((r): r is { id: string; body: Record<string, unknown>; status: number } => r !== null)
      .map((r) => r.status);
    expect(statuses).toEqual(writes.map(() => 200));
    await expectNoDrift();
    await expectTotals();
    await compactSessionCounts(pool);
    await expectNoDrift();
    await expectTotals();
  });

  /** A new organization with bulk sessions from February 2025 on, their counts compacted. */
  const compactedTenant = async (opts: { count: number; stepSeconds: number; seed: number }): Promise<Tenant> => {
    const who = await t.createTenant();
    await insertSessions(pool, who.organizationId, { ...opts, first: '2025-02-01T00:00:00Z' });
    await compactSessionCounts(pool);
    return who;
  };

  it('deltas without their hour (an instance older than the finer counts, mid-rollout): deep pages stay exact, pending and folded', async () => {
    const c = await compactedTenant({ count: 12_000, stepSeconds: 7_000, seed: 9 });
    const release = await holdCompactions(pool, c.organizationId);
    try {
      await insertSessions(pool, c.organizationId, {
        count: 3_000,
        first: '2025-05-20T00:00:00Z',
        stepSeconds: 9_000,
        seed: 11,
      });
      // What an older instance writes: the month only.
      const unhoured = await pool.query(
        `UPDATE session_count_deltas SET hour = NULL WHERE organization_id = $1 AND hour IS NOT NULL AND sessions <> 0`,
        [c.organizationId],
      );
      expect(unhoured.rowCount).toBeGreaterThan(100);
      await expectDeepPages(c);
    } finally {
      await release();
    }
    await compactSessionCounts(pool);
    // Folded: the finer counts and their totals miss those sessions for good, and the seek knows it.
    const finer = (await sessionCountDrift(pool)).filter((row) => row.organization_id === c.organizationId);
    expect(new Set(finer.map((row) => row.unit))).toEqual(new Set(['day', 'hour', 'day totals', 'hour totals']));
    await expectDeepPages(c);
    // Recounted, so that no later check inherits this organization's drift.
    for (const unit of ['day', 'hour']) {
      const facets = 'effective_qualification_status, buying_intent, booked_status';
      const bucket = `date_trunc('${unit}', start_time AT TIME ZONE 'UTC')`;
      for (const [table, columns, select] of [
        [`session_${unit}_counts`, `${facets}, `, `${facets}, `],
        [`session_${unit}_totals`, '', ''],
      ]) {
        await pool.query(`DELETE FROM ${table} WHERE organization_id = $1`, [c.organizationId]);
        await pool.query(
          `INSERT INTO ${table} (organization_id, ${unit}, ${columns}sessions)
           SELECT organization_id, ${bucket}, ${select}count(*) FROM sessions WHERE organization_id = $1 AND ${VISIBLE}
            GROUP BY organization_id, ${bucket}${select ? `, ${facets}` : ''}`,
          [c.organizationId],
        );
      }
    }
    expect(await sessionCountDrift(pool)).toEqual([]);
  });

  it('a deep page seeks through the day and hour totals, or with an enum filter their counts: a count moved between two other days, or hours, of its bucket moves the page', async () => {
    const d = await compactedTenant({ count: 20_000, stepSeconds: 5_000, seed: 13 });
    /** Where each kind of seek reads its finer steps, and the filter that makes it read there. */
    const cases: { q: SessionFilters; table: (unit: 'day' | 'hour') => string; facets: string[] }[] = [
      { q: {}, table: (unit) => `session_${unit}_totals`, facets: [] },
      {
        q: { qualification_status: 'qualified,unqualified' },
        table: (unit) => `session_${unit}_counts`,
        facets: ['effective_qualification_status'],
      },
    ];
    for (const { q, table, facets } of cases) {
      // The page whose first row is the oldest session (of the filter's) from 10:00 on 2025-03-12.
      const offset = (await oracleCountFrom(pool, d.organizationId, q, '2025-03-12T10:00:00Z')) - 1;
      expect(offset).toBeGreaterThanOrEqual(10_000);
      const page = async () => (await list(d, { ...q, offset, limit: 5 } as Query)).sessions.map((s) => s.id);
      const expected = await oracleSessionPage(pool, d.organizationId, q, offset, 5);
      expect(await page()).toEqual(expected);
      /** Adds `sessions` to the row of `unit` bucket `at` (qualified, other facets NULL): two moves that cancel out keep every sum above it. */
      const shift = (unit: 'day' | 'hour', at: string, sessions: number) =>
        pool.query(
          `INSERT INTO ${table(unit)} AS c (organization_id, ${unit}, ${facets.map((f) => `${f}, `).join('')}sessions)
           VALUES ($1, $2, ${facets.map(() => `'qualified', `).join('')}$3)
           ON CONFLICT (organization_id, ${unit}${facets.length ? ', effective_qualification_status, buying_intent, booked_status' : ''})
           DO UPDATE SET sessions = c.sessions + EXCLUDED.sessions`,
          [d.organizationId, at, sessions],
        );
      const moves: [unit: 'day' | 'hour', newer: string, older: string][] = [
        ['day', '2025-03-20T00:00:00', '2025-03-03T00:00:00'],
        ['hour', '2025-03-12T22:00:00', '2025-03-12T01:00:00'],
      ];
      for (const [unit, newer, older] of moves) {
        await shift(unit, newer, 2);
        await shift(unit, older, -2);
        expect({ q, unit, page: await page() }).not.toEqual({ q, unit, page: expected });
        await shift(unit, newer, -2);
        await shift(unit, older, 2);
        expect({ q, unit, page: await page() }).toEqual({ q, unit, page: expected });
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Campaign engagement
// ---------------------------------------------------------------------------------------------

const EVENT_TYPES: EventType[] = [
  'open',
  'open',
  'open',
  'page_view',
  'page_view',
  'page_view',
  'page_view',
  'session_started',
  'session_started',
  'session_engaged',
  'session_ended',
  'lead_submitted',
  'meeting_clicked',
  'meeting_booked',
];
const SESSION_POOL = Array.from({ length: 6 }, () => randomUUID());

/** Random events over `links`: human and bot opens, loads with and without visitorId, session events, conversions; some repeated. */
function randomEvents(rnd: ReturnType<typeof prng>, links: string[], n: number): EventInput[] {
  const events: EventInput[] = Array.from({ length: n }, () => {
    const type = rnd.pick(EVENT_TYPES);
    // 2026-01-25 .. 2026-03-06: some earlier than the seeded links' first opens, some later than their last activity.
    const occurredAt = new Date(Date.UTC(2026, 0, 25) + rnd.int(40 * 24 * 60) * 60_000 + rnd.int(1000)).toISOString();
    const e: EventInput = { eventId: `agg-${randomUUID()}`, type, customLinkId: rnd.pick(links), occurredAt };
    if (type === 'page_view') {
      e.pageViewId = `pv-${rnd.int(6)}`;
      if (rnd.int(2) === 0) e.visitorId = `v-${rnd.int(4)}`;
    }
    if (type.startsWith('session_') || rnd.int(4) === 0) e.sessionId = rnd.pick(SESSION_POOL);
    const bot = rnd.int(7);
    if (bot === 0) e.bot = true;
    else if (bot === 1) e.userAgent = GOOGLEBOT;
    return e;
  });
  // Repeats change nothing.
  for (let i = 0; i < n / 10; i++) events.push({ ...rnd.pick(events) });
  return events;
}

describe('campaign engagement (campaign_engagement)', () => {
  let t: TestApp;
  let pool: Pool;
  let c: Tenant;
  let d: Tenant;
  /** The campaigns of `c` that exist, by label. */
  const campaigns = new Map<string, string>();
  const deleted: string[] = [];
  let other: string;
  /** Links of `c` by the campaign label they were created in ('none' for unfiled). */
  const links = new Map<string, string[]>();
  const rnd = prng(SEED + 7);

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all', ...LIMITS, PUBLIC_BASE_URL: 'https://go.aggregates.test' });
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
    [c, d] = await Promise.all([t.createTenant(), t.createTenant()]);
  });
  afterAll(async () => {
    await pool?.end();
    await t?.close();
  });

  const get = (who: Tenant, path: string) => request(t.server).get(path).set('x-api-key', who.key);
  const engagement = (who: Tenant, id: string) => get(who, `${CAMPAIGNS}/${id}/engagement`);
  const createCampaign = async (who: Tenant, name: string) =>
    ((await request(t.server).post(CAMPAIGNS).set('x-api-key', who.key).send({ name }).expect(201)).body as Campaign)
      .id;
  const patch = (id: string, body: Record<string, unknown>) =>
    request(t.server).patch(`${LINKS}/${id}`).set('x-api-key', c.key).send(body).expect(200);
  const bulk = (body: Record<string, unknown>) =>
    request(t.server).post(`${LINKS}/actions`).set('x-api-key', c.key).send(body).expect(200);
  const send = async (who: Tenant, events: EventInput[]) => {
    const res = await request(t.server).post(EVENTS).set('x-api-key', who.key).send({ events });
    expect(res.status).toBe(202);
    expect((res.body as EventsAnswer).rejected).toEqual([]);
  };
  const campaignOf = async (linkId: string) =>
    ((await get(c, `${LINKS}/${linkId}`).expect(200)).body as Link).campaignId;

  /** Creates links through POST /custom-links (a job on the app's worker); returns their ids. */
  async function createLinks(who: Tenant, n: number, campaign?: { id?: string; name?: string }): Promise<string[]> {
    const input = Array.from({ length: n }, (_, i) => ({
      firstName: `P${i}`,
      company: 'Agg',
      shareThumbnailUrl: 'https://cdn.example.com/card.png',
    }));
    const res = await request(t.server)
      .post(LINKS)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send(campaign ? { links: input, campaign } : { links: input })
      .expect(202);
    const jobId = (res.body as JobEnvelope).job.id;
    await eventually(
      async () =>
        ((await get(who, `/api/v1/custom-link-jobs/${jobId}`).expect(200)).body as Job).status === 'completed',
      30_000,
    );
    return (
      (await get(who, `/api/v1/custom-link-jobs/${jobId}/items?limit=200`).expect(200)).body as JobItemPage
    ).items.map((i) => i.customLinkId!);
  }

  /** Every live campaign of both organizations equals the oracle; deleted ones are 404 with no rollup row. */
  async function expectCampaigns(): Promise<void> {
    const live: [Tenant, string, string][] = [
      ...[...campaigns].map(([label, id]): [Tenant, string, string] => [c, label, id]),
      [d, 'other org', other],
    ];
    const mismatches: string[] = [];
    // The events posted so far are folded into their links (and so their campaigns) first.
    await Promise.all([folded(t.app, c.organizationId), folded(t.app, d.organizationId)]);
    const before = Date.now();
    await Promise.all(
      live.map(async ([who, label, id]) => {
        const [res, expected] = await Promise.all([
          engagement(who, id),
          oracleCampaignEngagement(pool, who.organizationId, id),
        ]);
        if (res.status !== 200) mismatches.push(`${label}: status ${res.status}`);
        else {
          const { asOf, ...got } = res.body as Record<string, unknown>;
          // Nothing waits to be folded: asOf is the read's own instant.
          const read = Date.parse(asOf as string);
          if (!(read >= before && read <= Date.now()))
            mismatches.push(`${label}: asOf ${String(asOf)}, read after ${new Date(before).toISOString()}`);
          const keys = [...new Set([...Object.keys(got), ...Object.keys(expected)])].sort();
          const diff = keys
            .filter((k) => JSON.stringify(got[k]) !== JSON.stringify(expected[k]))
            .map((k) => `${k}: api ${JSON.stringify(got[k])}, oracle ${JSON.stringify(expected[k])}`);
          if (diff.length > 0) mismatches.push(`${label}: ${diff.join('; ')}`);
        }
      }),
    );
    for (const id of deleted) {
      const res = await engagement(c, id);
      if (res.status !== 404) mismatches.push(`deleted ${id}: status ${res.status}`);
      const { rows } = await pool.query(`SELECT 1 FROM campaign_engagement WHERE campaign_id = $1`, [id]);
      if (rows.length > 0) mismatches.push(`deleted ${id}: campaign_engagement row left`);
    }
    expect(mismatches).toEqual([]);
  }

  const filed = (...labels: string[]) => labels.flatMap((l) => links.get(l) ?? []);

  it('links created through the API and in bulk, and an empty campaign (zeros, nulls)', async () => {
    for (const label of ['one', 'two', 'three', 'empty', 'solo', 'pair'])
      campaigns.set(label, await createCampaign(c, `Agg ${label} ${SEED}`));
    other = await createCampaign(d, `Agg other ${SEED}`);
    links.set('one', await createLinks(c, 4, { id: campaigns.get('one') }));
    links.set('two', await createLinks(c, 4, { name: `agg TWO ${SEED}` })); // reused by name, case-insensitively
    links.set('none', await createLinks(c, 3));
    // A job that creates its campaign by name.
    const created = await createLinks(c, 2, { name: `Agg five ${SEED}` });
    campaigns.set('five', (await campaignOf(created[0])) as string);
    expect(campaigns.get('five')).toEqual(expect.any(String));
    await createLinks(d, 2, { id: other });
    expect(await campaignOf(filed('two')[0])).toBe(campaigns.get('two'));
    const bulkPlan = Array.from({ length: 36 }, (_, i) => ({ label: ['one', 'two', 'three', 'none'][i % 4], i }));
    const bulkIds = await insertLinks(
      pool,
      c.organizationId,
      bulkPlan.map(({ label, i }) => ({ campaignId: campaigns.get(label) ?? null, i })),
    );
    bulkPlan.forEach(({ label }, n) => links.set(label, [...(links.get(label) ?? []), bulkIds[n]]));
    await insertLinks(
      pool,
      d.organizationId,
      Array.from({ length: 6 }, (_, i) => ({ campaignId: other, i: i + 1 })),
    );
    // solo: two links never opened; pair: three links (two get opened later).
    links.set(
      'solo',
      await insertLinks(
        pool,
        c.organizationId,
        [4, 8].map((i) => ({ campaignId: campaigns.get('solo') as string, i })),
      ),
    );
    links.set(
      'pair',
      await insertLinks(
        pool,
        c.organizationId,
        [12, 16, 20].map((i) => ({ campaignId: campaigns.get('pair') as string, i })),
      ),
    );

    const empty = (await engagement(c, campaigns.get('empty') as string).expect(200)).body as Record<string, unknown>;
    expect(empty).toMatchObject({
      generatedLinkCount: 0,
      pageViewCount: 0,
      loadsPerUniqueVisitor: null,
      visitorCountMode: 'identified',
      firstOpenedAt: null,
      lastOpenedAt: null,
      lastActivityAt: null,
    });
    await expectCampaigns();
  });

  it('random event batches (opens, loads with/without visitorId, sessions, conversions, bot opens) over links in several campaigns', async () => {
    const targets = [...filed('one', 'two', 'three', 'none'), ...filed('pair').slice(0, 2)];
    for (let round = 0; round < 6; round++) {
      await send(c, randomEvents(rnd, targets, 60));
      await expectCampaigns();
    }
    // The other organization's links get events too; they must stay out of c's campaigns.
    const { rows } = await pool.query<{ id: string }>(`SELECT id FROM custom_links WHERE organization_id = $1`, [
      d.organizationId,
    ]);
    await send(
      d,
      randomEvents(
        rnd,
        rows.map((r) => r.id),
        40,
      ),
    );
    await expectCampaigns();
  });

  it('moving links between campaigns and unfiling them (PATCH {id}, {name}, null; bulk move, move to null, deactivate, activate)', async () => {
    const [one, two, three, none] = ['one', 'two', 'three', 'none'].map((l) => links.get(l) as string[]);
    await patch(one[0], { campaign: { id: campaigns.get('two') } });
    await expectCampaigns();
    await patch(one[1], { campaign: { name: `Agg four ${SEED}` } });
    const four = (await campaignOf(one[1])) as string;
    expect(four).not.toBeNull();
    campaigns.set('four', four);
    await expectCampaigns();
    await patch(two[0], { campaign: null });
    await expectCampaigns();
    await patch(three[0], { campaign: { id: campaigns.get('one') }, active: false });
    await expectCampaigns();
    await bulk({
      action: 'move',
      customLinkIds: [one[2], one[3], three[1], three[2], none[0], two[1]],
      campaignId: campaigns.get('two'),
    });
    await expectCampaigns();
    await bulk({ action: 'move', customLinkIds: [two[2], two[3], one[0]], campaignId: null });
    await expectCampaigns();
    await bulk({
      action: 'move',
      customLinkIds: [...three.slice(3, 7), ...none.slice(1, 3)],
      campaignId: campaigns.get('four'),
    });
    await expectCampaigns();
    await bulk({ action: 'deactivate', customLinkIds: [...one.slice(4, 8), ...two.slice(4, 6), three[0]] });
    await expectCampaigns();
    await bulk({ action: 'activate', customLinkIds: [...one.slice(5, 7), three[0]] });
    await expectCampaigns();
    // A PATCH that also queues a thumbnail render: the worker's later updates of the link touch no campaign figure.
    const res = await request(t.server)
      .patch(`${LINKS}/${two[4]}`)
      .set('x-api-key', c.key)
      .set('Idempotency-Key', randomUUID())
      .send({ company: 'Rendered Co', shareThumbnailUrl: null, campaign: { id: campaigns.get('four') } })
      .expect(200);
    const jobId = (res.body as LinkUpdate).job?.id;
    expect(jobId).toBeDefined();
    await eventually(
      async () =>
        ['completed', 'completed_with_errors', 'failed'].includes(
          ((await get(c, `/api/v1/custom-link-jobs/${jobId}`).expect(200)).body as Job).status,
        ),
      30_000,
    );
    await expectCampaigns();
    // Events after the moves land in the links' current campaigns.
    await send(c, randomEvents(rnd, [...one, ...two, ...three, ...none], 80));
    await expectCampaigns();
  });

  it("a campaign whose only opened link moves away reads null times; one losing its earliest and latest link reads the others' times", async () => {
    const [solo0, solo1] = links.get('solo') as string[];
    const [pair0, pair1, pair2] = links.get('pair') as string[];
    await send(c, [
      { eventId: `agg-${randomUUID()}`, type: 'open', customLinkId: solo0, occurredAt: '2026-03-02T09:00:00.000Z' },
      {
        eventId: `agg-${randomUUID()}`,
        type: 'open',
        customLinkId: solo1,
        occurredAt: '2026-03-02T09:05:00.000Z',
        bot: true,
      },
      // pair0 holds the earliest first open and the latest activity, pair1 the latest open.
      { eventId: `agg-${randomUUID()}`, type: 'open', customLinkId: pair0, occurredAt: '2025-12-01T08:00:00.000Z' },
      {
        eventId: `agg-${randomUUID()}`,
        type: 'session_ended',
        customLinkId: pair0,
        occurredAt: '2026-06-01T08:00:00.000Z',
        sessionId: SESSION_POOL[0],
      },
      {
        eventId: `agg-${randomUUID()}`,
        type: 'page_view',
        customLinkId: pair1,
        occurredAt: '2026-05-01T08:00:00.000Z',
        pageViewId: 'pv-late',
      },
      { eventId: `agg-${randomUUID()}`, type: 'open', customLinkId: pair2, occurredAt: '2026-02-10T08:00:00.000Z' },
    ]);
    await expectCampaigns();
    const before = (await engagement(c, campaigns.get('pair') as string).expect(200)).body as Record<string, unknown>;
    expect(before).toMatchObject({
      firstOpenedAt: '2025-12-01T08:00:00.000Z',
      lastOpenedAt: '2026-05-01T08:00:00.000Z',
      lastActivityAt: '2026-06-01T08:00:00.000Z',
    });

    await patch(solo0, { campaign: { id: campaigns.get('empty') } });
    const solo = (await engagement(c, campaigns.get('solo') as string).expect(200)).body as Record<string, unknown>;
    expect(solo).toMatchObject({
      generatedLinkCount: 1,
      openedLinkCount: 0,
      firstOpenedAt: null,
      lastOpenedAt: null,
      lastActivityAt: null,
    });
    await expectCampaigns();

    await bulk({ action: 'move', customLinkIds: [pair0], campaignId: campaigns.get('one') });
    await expectCampaigns();
    await patch(pair1, { campaign: null });
    await expectCampaigns();
    await bulk({ action: 'move', customLinkIds: [pair2], campaignId: null });
    const pair = (await engagement(c, campaigns.get('pair') as string).expect(200)).body as Record<string, unknown>;
    expect(pair).toMatchObject({
      generatedLinkCount: 0,
      firstOpenedAt: null,
      lastOpenedAt: null,
      lastActivityAt: null,
    });
    await expectCampaigns();
    // Back in: the times return.
    await bulk({ action: 'move', customLinkIds: [pair0, pair1, pair2, solo0], campaignId: campaigns.get('pair') });
    await expectCampaigns();
  });

  it('deleting a campaign: 404, no campaign_engagement row, its links unfiled and the other campaigns unchanged', async () => {
    const id = campaigns.get('three') as string;
    const { rows } = await pool.query<{ id: string }>(
      `SELECT id FROM custom_links WHERE organization_id = $1 AND campaign_id = $2`,
      [c.organizationId, id],
    );
    expect(rows.length).toBeGreaterThan(0);
    await request(t.server).delete(`${CAMPAIGNS}/${id}`).set('x-api-key', c.key).expect(204);
    campaigns.delete('three');
    deleted.push(id);
    for (const link of rows.slice(0, 3)) expect(await campaignOf(link.id)).toBeNull();
    await expectCampaigns();
    // Deleting one whose links had moved away, and the empty one that gained a link.
    for (const label of ['solo']) {
      const gone = campaigns.get(label) as string;
      await request(t.server).delete(`${CAMPAIGNS}/${gone}`).set('x-api-key', c.key).expect(204);
      campaigns.delete(label);
      deleted.push(gone);
    }
    await expectCampaigns();
  });

  it("another organization's campaign and an unknown id are 404", async () => {
    expect((await engagement(c, other)).status).toBe(404);
    expect((await engagement(d, campaigns.get('one') as string)).status).toBe(404);
    expect((await engagement(c, randomUUID())).status).toBe(404);
  });

  it('8 concurrent event batches over overlapping links in two campaigns', async () => {
    const [one, two] = [campaigns.get('one'), campaigns.get('two')];
    const { rows } = await pool.query<{ id: string }>(
      `SELECT id FROM custom_links WHERE organization_id = $1 AND campaign_id = ANY($2::uuid[]) ORDER BY id`,
      [c.organizationId, [one, two]],
    );
    const ids = rows.map((r) => r.id);
    expect(ids.length).toBeGreaterThan(12);
    const batches = Array.from({ length: 8 }, (_, i) =>
      randomEvents(
        rnd,
        ids.filter((_, n) => (n + i) % 3 !== 0),
        70,
      ),
    );
    const statuses = await Promise.all(
      batches.map(
        async (events) => (await request(t.server).post(EVENTS).set('x-api-key', c.key).send({ events })).status,
      ),
    );
    expect(statuses).toEqual(batches.map(() => 202));
    await expectCampaigns();
  });

  it('concurrent event batches while links move between the same campaigns', async () => {
    const [one, two] = [campaigns.get('one') as string, campaigns.get('two') as string];
    const { rows } = await pool.query<{ id: string }>(
      `SELECT id FROM custom_links WHERE organization_id = $1 AND campaign_id = ANY($2::uuid[]) ORDER BY id`,
      [c.organizationId, [one, two]],
    );
    const ids = rows.map((r) => r.id);
    const movers = ids.filter((_, n) => n % 4 === 0);
    const work: Promise<number>[] = [
      // Events on links that stay and on links that move.
      ...Array.from(
        { length: 6 },
        async () =>
          (
            await request(t.server)
              .post(EVENTS)
              .set('x-api-key', c.key)
              .send({ events: randomEvents(rnd, ids, 50) })
          ).status,
      ),
      ...movers.map(
        async (id, n) =>
          (
            await request(t.server)
              .post(`${LINKS}/actions`)
              .set('x-api-key', c.key)
              .send({ action: 'move', customLinkIds: [id], campaignId: n % 2 ? one : two })
          ).status,
      ),
    ];
    const statuses = await Promise.all(work);
    expect(statuses).toEqual([...Array.from({ length: 6 }, () => 202), ...movers.map(() => 200)]);
    await expectCampaigns();
  });
});
