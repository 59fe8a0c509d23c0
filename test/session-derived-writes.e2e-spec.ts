import { Pool } from 'pg';
import request from 'supertest';
import { RetentionService } from '../src/modules/retention';
import { oracleSessionCount, oracleSessionPage, sessionCountDrift, sessionEmailDrift } from './support/aggregates';
import type { Erasure, SessionPage } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * The rows derived from sessions (the session counts' deltas and the email search's session_emails)
 * are written in the transactions that write sessions (SessionsRepository.writeDerived; no trigger
 * since migration SessionDerivedWrites): after each way the service writes a session —
 * ingestion of a new one, its analysis finishing, its re-ingestion, the person rollup rewriting its
 * effective qualification, its deletion by erasure and by retention, and concurrent ingestions of
 * one email — the counts and the search equal a recount of the sessions, and GET /sessions agrees.
 */
jest.setTimeout(120_000);

const SESSIONS = '/api/v1/sessions';
const ERASURES = '/api/v1/privacy/erasures';
const RETENTION = '/api/v1/settings/retention';
const FAST = { RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' };

describe('rows derived from sessions, written with them', () => {
  let t: TestApp;
  let pool: Pool;
  let who: Tenant;
  let bystander: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all', ...FAST });
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
    [who, bystander] = await Promise.all([t.createTenant(), t.createTenant()]);
  });
  afterAll(async () => {
    await pool?.end();
    await t?.close();
  });

  const auth = (req: request.Test, key: string) => req.set('x-api-key', key);
  const put = async (id: string, body: Record<string, unknown>, tenant = who) =>
    ingest(t.server, tenant.key, id, body).expect(200);
  const at = (startTime: string, overrides: Record<string, unknown> = {}) =>
    sessionBody({
      startTime,
      endTime: new Date(Date.parse(startTime) + 600_000).toISOString(),
      qualificationAssessedAt: new Date(Date.parse(startTime) + 660_000).toISOString(),
      ...overrides,
    });
  const recent = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();

  /** Counts and search equal a recount, and the list's totals and email pages equal the oracle's. */
  async function expectExact(emails: string[]): Promise<void> {
    expect(await sessionCountDrift(pool)).toEqual([]);
    expect(await sessionEmailDrift(pool)).toEqual([]);
    for (const tenant of [who, bystander]) {
      for (const email of [undefined, ...emails]) {
        const query = email === undefined ? {} : { email };
        const page = (
          await auth(request(t.server).get(SESSIONS), tenant.key)
            .query({ ...query, limit: 50 })
            .expect(200)
        ).body as SessionPage;
        expect({ email, total: page.pagination.total, ids: page.sessions.map((s) => s.id) }).toEqual({
          email,
          total: await oracleSessionCount(pool, tenant.organizationId, query),
          ids: await oracleSessionPage(pool, tenant.organizationId, query, 0, 50),
        });
      }
    }
  }

  /** Visible sessions of the organization: the total GET /sessions reports. */
  const total = async () =>
    ((await auth(request(t.server).get(SESSIONS), who.key).query({ limit: 1 }).expect(200)).body as SessionPage)
      .pagination.total;

  const ids = { ann: newSessionId(), annPending: newSessionId(), bob: newSessionId(), anonymous: newSessionId() };
  const emails = ['ann@derived.test', 'bob@', 'cat@derived.test', 'derived.test', 'dora@'];

  it('ingesting new sessions: visible ones counted and searchable, staging and pending ones neither', async () => {
    await put(ids.ann, at(recent(3), { email: 'ann@derived.test', buyingIntent: 'high' }));
    await put(ids.annPending, at(recent(2), { email: 'ann@derived.test', analysisStatus: 'pending' }));
    await put(ids.bob, at(recent(2), { email: 'bob@derived.test', environment: 'staging' }));
    await put(ids.anonymous, at(recent(1), { email: null, name: null, phone: null }));
    await put(newSessionId(), at(recent(1), { email: 'bob@derived.test' }), bystander);
    expect(await total()).toBe(2);
    await expectExact(emails);
  });

  it('an analysis finishing (pending → analyzed) and a staging session re-ingested in production', async () => {
    await put(ids.annPending, at(recent(2), { email: 'ann@derived.test' }));
    await put(ids.bob, at(recent(2), { email: 'bob@derived.test' }));
    expect(await total()).toBe(4);
    await expectExact(emails);
  });

  it('re-ingestion moving a session to another month, other facets and another email', async () => {
    await put(
      ids.ann,
      at('2025-03-31T23:59:59.999Z', { email: 'cat@derived.test', buyingIntent: 'low', bookedStatus: 'not_booked' }),
    );
    await expectExact(emails);
  });

  it("the person rollup rewriting a person's sessions' effective qualification", async () => {
    const effective = async () =>
      (
        await pool.query<{ status: string | null }>(
          `SELECT effective_qualification_status AS status FROM sessions WHERE organization_id = $1 AND id = $2`,
          [who.organizationId, ids.annPending],
        )
      ).rows[0].status;
    expect(await effective()).toBe('qualified');
    // Assessed last: the person's qualification, which their other visible sessions take on.
    await put(newSessionId(), at(recent(1), { email: 'ann@derived.test', qualificationStatus: 'unqualified' }));
    expect(await effective()).toBe('unqualified');
    await expectExact(emails);
  });

  it('concurrent ingestions of one email, new sessions and re-ingestions of the same ids, with their rollups', async () => {
    const shared = Array.from({ length: 6 }, () => newSessionId());
    const bodies = (round: number) =>
      shared.map((id, i) => ({
        id,
        body: at(recent(1 + ((i + round) % 4)), {
          email: 'dora@derived.test',
          qualificationStatus: (i + round) % 2 ? 'qualified' : 'unqualified',
          buyingIntent: ['high', 'medium', 'low', null][(i + round) % 4],
          analysisStatus: (i + round) % 5 === 0 ? 'pending' : 'analyzed',
        }),
      }));
    await Promise.all([0, 1, 2].flatMap((round) => bodies(round).map(({ id, body }) => put(id, body))));
    await expectExact(emails);
  });

  it("deletion by erasure: the subject's sessions leave the counts and the search", async () => {
    const before = await total();
    const res = await auth(request(t.server).post(ERASURES), who.key).send({ email: 'ann@derived.test' }).expect(202);
    const done = await readUntil(
      async () =>
        (await auth(request(t.server).get(`${ERASURES}/${(res.body as Erasure).id}`), who.key).expect(200))
          .body as Erasure,
      (erasure) => erasure.status === 'completed' || erasure.status === 'failed',
      60_000,
    );
    expect(done).toMatchObject({ status: 'completed', counts: { sessions: 2 } });
    expect(await total()).toBe(before - 2);
    await expectExact(emails);
  });

  it('deletion by retention: expired sessions leave the counts and the search', async () => {
    const before = await total();
    await auth(request(t.server).put(RETENTION), who.key)
      .send({ transcriptDays: null, sessionDays: 30, eventDays: null })
      .expect(200);
    try {
      const counts = await t.app.get(RetentionService).run(who.organizationId);
      // The session moved to March 2025 (cat@), visible.
      expect(counts).toMatchObject({ sessions: 1 });
    } finally {
      await auth(request(t.server).put(RETENTION), who.key)
        .send({ transcriptDays: null, sessionDays: null, eventDays: null })
        .expect(200);
    }
    expect(await total()).toBe(before - 1);
    await expectExact(emails);
  });
});
