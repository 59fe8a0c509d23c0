import { Pool } from 'pg';
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { insertLinks, insertPreciseSessions } from './support/aggregates';
import { updateSessionRows } from './support/session-writes';
import { detailOf } from './support/api-responses';
import type { AccountPage, LinkPage, PeoplePage, SessionDetail, SessionPage } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/** Cursor pagination and incremental sync (issue 20 point 2). */

const LINKS = '/api/v1/custom-links';
const SESSIONS = '/api/v1/sessions';
const PEOPLE = '/api/v1/people';
const ACCOUNTS = '/api/v1/accounts';

interface Page {
  ids: string[];
  nextCursor: string | null;
  offset: number;
  total: number;
}

let t: TestApp;
let pool: Pool;

beforeAll(async () => {
  t = await createTestApp();
  pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
});

afterAll(async () => {
  await pool.end();
  await t.close();
});

const get = (who: Tenant, path: string, query: Record<string, string | number>) =>
  request(t.server).get(path).query(query).set('Authorization', `Bearer ${who.key}`);

/** One page of a list, whichever shape it has (named array beside total, or `pagination`). */
async function page(who: Tenant, path: string, query: Record<string, string | number>): Promise<Page> {
  const res = await get(who, path, query).expect(200);
  const body = res.body as Record<string, unknown>;
  const items = (body.customLinks ??
    body.sessions ??
    body.people ??
    body.accounts ??
    body.campaigns ??
    body.webhookEndpoints ??
    body.deliveries ??
    body.events ??
    body.jobs ??
    body.items) as {
    id?: string;
    eventId?: string;
  }[];
  const meta = (body.pagination ?? body) as { nextCursor: string | null; offset: number; total: number };
  return {
    ids: items.map((item) => (item.id ?? item.eventId) as string),
    nextCursor: meta.nextCursor,
    offset: meta.offset,
    total: meta.total,
  };
}

/** Follows nextCursor to the end, calling `between` after each page; returns every id in order. */
async function walk(
  who: Tenant,
  path: string,
  query: Record<string, string | number>,
  between: () => Promise<void> = async () => {},
): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const next: Page = await page(who, path, cursor === null ? query : { ...query, cursor });
    expect(next.offset).toBe(seen.length);
    seen.push(...next.ids);
    if (next.nextCursor === null) return seen;
    cursor = next.nextCursor;
    await between();
  }
  throw new Error('the walk did not end');
}

/** Every id of a list through offset pages (nothing inserted meanwhile). */
async function byOffsets(who: Tenant, path: string, query: Record<string, string | number>): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const next = await page(who, path, { ...query, limit: 200, offset: ids.length });
    ids.push(...next.ids);
    if (next.ids.length < 200) return ids;
  }
}

/** An instant `i` hours after 2026-01-01 with a microsecond fraction, as text (PostgreSQL keeps the microseconds). */
const sessionAt = (i: number) =>
  `${new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString().slice(0, 19)}.${String((Math.abs(i) * 7919) % 1_000_000).padStart(6, '0')}Z`;

/**
 * An instant, to the millisecond the API speaks, after every write so far and before every write to come: the database
 * clock's next whole millisecond, once the clock has passed it (a truncated clock could share a millisecond with the
 * rows written just before, and those would count as changed).
 */
const dbNow = async () => {
  const { rows } = await pool.query<{ at: Date }>(
    `SELECT date_trunc('milliseconds', clock_timestamp()) + interval '1 millisecond' AS at`,
  );
  const at = rows[0].at;
  while (!(await pool.query<{ past: boolean }>('SELECT clock_timestamp() >= $1 AS past', [at])).rows[0].past) {
    /* the next millisecond is at most one away */
  }
  return at.toISOString();
};

describe('cursor walks', () => {
  it('never skip or repeat a link that existed when the walk started, while links are inserted (created_at ties broken by id)', async () => {
    const who = await t.createTenant();
    // One statement: every link has the same created_at, so only the id orders them.
    const existing = await insertLinks(
      pool,
      who.organizationId,
      Array.from({ length: 41 }, (_, i) => ({ campaignId: null, i })),
    );
    const inserted: string[] = [];
    const seen = await walk(who, LINKS, { limit: 7 }, async () => {
      inserted.push(
        ...(await insertLinks(
          pool,
          who.organizationId,
          [0, 1, 2].map((i) => ({ campaignId: null, i })),
        )),
      );
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => existing.includes(id)).sort()).toEqual([...existing].sort());
    expect(inserted.length).toBeGreaterThan(0);
  });

  it.each([
    { sort: 'last_activity_at', order: 'desc' },
    { sort: 'last_activity_at', order: 'asc' },
    { sort: 'created_at', order: 'asc' },
  ])('give the offset pages order for %j (links without activity last)', async (order) => {
    const who = await t.createTenant();
    await insertLinks(
      pool,
      who.organizationId,
      Array.from({ length: 30 }, (_, i) => ({ campaignId: null, i })),
    );
    expect(await walk(who, LINKS, { ...order, limit: 4 })).toEqual(await byOffsets(who, LINKS, order));
  });

  it('never skip or repeat a session that existed when the walk started, while sessions are inserted before, inside and after it', async () => {
    const who = await t.createTenant();
    // Microsecond start times: a cursor keeps them exactly (a millisecond cursor would skip or repeat).
    const existing = await insertPreciseSessions(
      pool,
      who.organizationId,
      Array.from({ length: 33 }, (_, i) => ({ at: sessionAt(i) })),
    );
    let round = 100;
    const seen = await walk(who, SESSIONS, { limit: 5 }, async () => {
      round += 1;
      await insertPreciseSessions(pool, who.organizationId, [
        { at: sessionAt(round) },
        { at: sessionAt(round - 90) },
        { at: sessionAt(-round) },
      ]);
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => existing.includes(id)).sort()).toEqual([...existing].sort());
  });
});

describe('cursor validation', () => {
  let a: Tenant;
  let cursor: string;

  beforeAll(async () => {
    a = await t.createTenant();
    await insertPreciseSessions(
      pool,
      a.organizationId,
      Array.from({ length: 4 }, (_, i) => ({ at: sessionAt(i) })),
    );
    cursor = (await page(a, SESSIONS, { limit: 2 })).nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
  });

  const refused = async (who: Tenant, path: string, query: Record<string, string | number>) => {
    const res = await get(who, path, query).expect(422);
    expect(detailOf(res)).toEqual([expect.objectContaining({ type: 'value_error', loc: ['query', 'cursor'] })]);
  };

  it('accepts its own cursor', async () => {
    expect(await page(a, SESSIONS, { limit: 2, cursor })).toMatchObject({ offset: 2, nextCursor: null, total: 4 });
  });

  it('refuses an edited cursor', async () => {
    const [payload, signature] = cursor.split('.');
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { o: number };
    const edited = Buffer.from(JSON.stringify({ ...body, o: body.o + 1 })).toString('base64url');
    await refused(a, SESSIONS, { cursor: `${edited}.${signature}` });
    await refused(a, SESSIONS, { cursor: `${payload}.${signature.slice(1)}` });
    await refused(a, SESSIONS, { cursor: 'not-a-cursor' });
  });

  it("refuses another organization's cursor, another list's and another filter's", async () => {
    await refused(await t.createTenant(), SESSIONS, { cursor });
    await refused(a, PEOPLE, { cursor });
    await refused(a, SESSIONS, { cursor, buying_intent: 'high' });
  });

  it('refuses a cursor with an offset, even offset=0', async () => {
    await refused(a, SESSIONS, { cursor, offset: 0 });
    await refused(a, LINKS, { cursor: 'x', offset: 2 });
  });
});

describe('updated_since', () => {
  it('lists the links changed at or after the instant, (updatedAt, id) ascending: a PATCH and a rollup move updatedAt, an update changing nothing does not', async () => {
    const who = await t.createTenant();
    const ids = await insertLinks(
      pool,
      who.organizationId,
      Array.from({ length: 5 }, (_, i) => ({ campaignId: null, i })),
    );
    const all = (await get(who, LINKS, { updated_since: '2000-01-01T00:00:00Z' }).expect(200)).body as LinkPage;
    const keys = all.customLinks.map((l) => [l.updatedAt, l.id].join(' '));
    expect(keys).toEqual([...keys].sort());
    expect(all.customLinks.map((l) => l.id).sort()).toEqual([...ids].sort());

    const since = await dbNow();
    await pool.query('UPDATE custom_links SET load_count = load_count + 1 WHERE organization_id = $1 AND id = $2', [
      who.organizationId,
      ids[2],
    ]);
    await pool.query('UPDATE custom_links SET load_count = load_count WHERE organization_id = $1 AND id = $2', [
      who.organizationId,
      ids[0],
    ]);
    await request(t.server)
      .patch(`${LINKS}/${ids[4]}`)
      .set('x-api-key', who.key)
      .send({ context: 'changed' })
      .expect(200);
    const changed = await walk(who, LINKS, { updated_since: since, limit: 1 });
    expect({ changed, ids }).toEqual({ changed: [ids[2], ids[4]], ids });
  });

  it('lists the sessions and people changed at or after the instant, each with updatedAt', async () => {
    const who = await t.createTenant();
    const ids = await insertPreciseSessions(
      pool,
      who.organizationId,
      Array.from({ length: 4 }, (_, i) => ({ at: sessionAt(i) })),
    );
    const since = await dbNow();
    await updateSessionRows(pool, who.organizationId, `buying_intent = 'low'`, 'id = $2', [ids[1]]);
    const res = await get(who, SESSIONS, { updated_since: since }).expect(200);
    const body = res.body as SessionPage;
    expect(body.sessions.map((s) => s.id)).toEqual([ids[1]]);
    expect(Date.parse(body.sessions[0].updatedAt)).toBeGreaterThanOrEqual(Date.parse(since) - 1);
    expect(body.pagination).toMatchObject({ total: 1, nextCursor: null });
    const people = (await get(who, PEOPLE, { updated_since: since }).expect(200)).body as PeoplePage;
    expect(people.people).toEqual([]);
  });
});

describe('GET /api/v1/accounts', () => {
  /** Accounts last seen at `sessionAt(at)` each, written directly (their rollups are covered by accounts.e2e-spec). */
  async function insertAccounts(organizationId: string, at: number[]): Promise<string[]> {
    const ids = at.map(() => randomUUID());
    await pool.query(
      `INSERT INTO accounts (organization_id, id, account_domain, total_users, total_sessions, booked_sessions, high_intent_users,
                             qualified_users, total_time_spent_seconds, last_seen_at)
       SELECT $1::uuid, a.id, 'd' || replace(a.id::text, '-', '') || '.com', 1, 1, 0, 0, 0, 60, a.at
         FROM jsonb_to_recordset($2::jsonb) AS a(id uuid, at timestamptz)`,
      [organizationId, JSON.stringify(ids.map((id, n) => ({ id, at: sessionAt(at[n]) })))],
    );
    return ids;
  }

  it("lists the organization's accounts newest lastSeenAt first (ties by id), every field of the account GET", async () => {
    const who = await t.createTenant();
    const other = await t.createTenant();
    await insertAccounts(other.organizationId, [1, 2, 3]);
    const ids = await insertAccounts(who.organizationId, [5, 9, 9, 9, 1, 7]);
    const res = await get(who, ACCOUNTS, { limit: 4 }).expect(200);
    const body = res.body as AccountPage;
    const tied = [ids[1], ids[2], ids[3]].sort().reverse();
    expect(body.accounts.map((a) => a.id)).toEqual([...tied, ids[5]]);
    expect(body).toMatchObject({ total: 6, limit: 4, offset: 0, nextCursor: expect.any(String) });
    const single = (await get(who, `${ACCOUNTS}/${body.accounts[0].accountDomain}`, {}).expect(200)).body as unknown;
    expect(body.accounts[0]).toEqual(single);
    expect(await walk(who, ACCOUNTS, { limit: 4 })).toEqual([...tied, ids[5], ids[0], ids[4]]);
  });

  it('never skips or repeats an account that existed when the walk started, while accounts are inserted; cursor order equals offset order', async () => {
    const who = await t.createTenant();
    const existing = await insertAccounts(
      who.organizationId,
      Array.from({ length: 37 }, (_, i) => i % 5),
    );
    expect(await walk(who, ACCOUNTS, { limit: 6 })).toEqual(await byOffsets(who, ACCOUNTS, {}));
    let round = 0;
    const seen = await walk(who, ACCOUNTS, { limit: 6 }, async () => {
      round += 1;
      await insertAccounts(who.organizationId, [100 + round, 2, -round]);
    });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => existing.includes(id)).sort()).toEqual([...existing].sort());
    expect(round).toBeGreaterThan(0);
  });

  it('lists the accounts a rollup changed at or after updated_since, (updatedAt, id) ascending, each with updatedAt', async () => {
    const who = await t.createTenant();
    const at = new Date(Date.now() - 86_400_000).toISOString();
    const end = new Date(Date.now() - 86_000_000).toISOString();
    await ingest(
      t.server,
      who.key,
      newSessionId(),
      sessionBody({ email: 'a@acme.com', startTime: at, endTime: end }),
    ).expect(200);
    await ingest(
      t.server,
      who.key,
      newSessionId(),
      sessionBody({ email: 'a@other.com', startTime: at, endTime: end }),
    ).expect(200);
    const since = await dbNow();
    await ingest(
      t.server,
      who.key,
      newSessionId(),
      sessionBody({ email: 'b@acme.com', startTime: at, endTime: end }),
    ).expect(200);
    const body = (await get(who, ACCOUNTS, { updated_since: since }).expect(200)).body as AccountPage;
    expect(body.accounts).toEqual([expect.objectContaining({ accountDomain: 'acme.com', totalUsers: 2 })]);
    expect(Date.parse(body.accounts[0].updatedAt)).toBeGreaterThanOrEqual(Date.parse(since) - 1);
    expect(body.total).toBe(1);
    const all = (await get(who, ACCOUNTS, { updated_since: '2000-01-01T00:00:00Z' }).expect(200)).body as AccountPage;
    const keys = all.accounts.map((a) => [a.updatedAt, a.id].join(' '));
    expect(keys).toEqual([...keys].sort());
    expect(keys).toHaveLength(2);
  });

  it('needs accounts:read, and refuses a cursor of another list, organization or filter', async () => {
    const who = await t.createTenant();
    await insertAccounts(who.organizationId, [1, 2, 3]);
    const noScope = await t.createKey(who.organizationId, ['people:read']);
    await request(t.server).get(ACCOUNTS).set('Authorization', `Bearer ${noScope}`).expect(403);
    await request(t.server).get(ACCOUNTS).expect(401);
    const cursor = (await page(who, ACCOUNTS, { limit: 1 })).nextCursor as string;
    const refused = async (whom: Tenant, path: string, query: Record<string, string | number>) => {
      const res = await get(whom, path, query).expect(422);
      expect(detailOf(res)).toEqual([expect.objectContaining({ type: 'value_error', loc: ['query', 'cursor'] })]);
    };
    await refused(who, PEOPLE, { cursor });
    await refused(await t.createTenant(), ACCOUNTS, { cursor });
    await refused(who, ACCOUNTS, { cursor, updated_since: '2000-01-01T00:00:00Z' });
    await refused(who, ACCOUNTS, { cursor, offset: 1 });
    expect(await page(who, ACCOUNTS, { limit: 1, cursor })).toMatchObject({ offset: 1, total: 3 });
  });
});

describe('cursor walks of campaigns, webhook endpoints, deliveries and link events', () => {
  /** Rows inserted in one statement share created_at (occurred_at for events): only the id orders them. */
  interface Seeded {
    path: string;
    insert: (n: number) => Promise<string[]>;
  }

  async function seed(kind: string, organizationId: string): Promise<Seeded> {
    const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
    if (kind === 'campaigns') {
      return {
        path: '/api/v1/custom-link-campaigns',
        insert: async (n) => {
          const rows = ids(n);
          await pool.query(
            `INSERT INTO campaigns (organization_id, id, name) SELECT $1, id, 'c ' || id FROM unnest($2::uuid[]) AS id`,
            [organizationId, rows],
          );
          return rows;
        },
      };
    }
    const endpointId = randomUUID();
    await pool.query(
      `INSERT INTO webhook_endpoints (organization_id, id, url, event_types, secret) VALUES ($1, $2, 'https://example.com/h', '{session.analyzed}', 'whsec_x')`,
      [organizationId, endpointId],
    );
    if (kind === 'endpoints') {
      return {
        path: '/api/v1/webhook-endpoints',
        insert: async (n) => {
          const rows = ids(n);
          await pool.query(
            `INSERT INTO webhook_endpoints (organization_id, id, url, event_types, secret) SELECT $1, id, 'https://example.com/h', '{session.analyzed}', 'whsec_x' FROM unnest($2::uuid[]) AS id`,
            [organizationId, rows],
          );
          return rows;
        },
      };
    }
    if (kind === 'deliveries') {
      const messageId = randomUUID();
      await pool.query(
        `INSERT INTO webhook_messages (organization_id, id, event_type, body) VALUES ($1, $2, 'session.analyzed', '{}')`,
        [organizationId, messageId],
      );
      return {
        path: `/api/v1/webhook-endpoints/${endpointId}/deliveries`,
        insert: async (n) => {
          const rows = ids(n);
          await pool.query(
            `INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status) SELECT $1, id, $2, $3, 1, 'failed' FROM unnest($4::uuid[]) AS id`,
            [organizationId, endpointId, messageId, rows],
          );
          return rows;
        },
      };
    }
    const [linkId] = await insertLinks(pool, organizationId, [{ campaignId: null, i: 1 }]);
    return {
      path: `${LINKS}/${linkId}/events`,
      insert: async (n) => {
        const rows = ids(n).map((id) => `ev-${id}`);
        // Logged events (docs/api.md §6.4): each eventId once in link_event_ids, the rows in a batch of
        // their own that is not pending (the timeline reads the log, folded or not).
        await pool.query(
          `WITH ids AS (
             INSERT INTO link_event_ids (organization_id, event_id, received_at) SELECT $1, id, now() FROM unnest($3::text[]) AS id)
           INSERT INTO link_events (organization_id, received_at, batch_id, event_id, custom_link_id, type, occurred_at, bot)
           SELECT $1, now(), gen_random_uuid(), e.id, $2, 'page_view', timestamptz '2026-03-01T00:00:00Z' + (e.n % 3) * interval '1 second', false
             FROM unnest($3::text[]) WITH ORDINALITY AS e(id, n)`,
          [organizationId, linkId, rows],
        );
        return rows;
      },
    };
  }

  it.each(['campaigns', 'endpoints', 'deliveries', 'events'])(
    '%s: cursor order equals offset order, and a walk inserting rows never skips or repeats one',
    async (kind) => {
      const who = await t.createTenant();
      const seeded = await seed(kind, who.organizationId);
      const existing = await seeded.insert(kind === 'endpoints' ? 12 : 17);
      const all = await walk(who, seeded.path, { limit: 3 });
      expect(all).toEqual(await byOffsets(who, seeded.path, {}));
      expect(all.filter((id) => existing.includes(id)).sort()).toEqual([...existing].sort());
      let inserted = 0;
      const seen = await walk(who, seeded.path, { limit: 3 }, async () => {
        inserted += (await seeded.insert(1)).length;
      });
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => existing.includes(id)).sort()).toEqual([...existing].sort());
      expect(inserted).toBeGreaterThan(0);
    },
  );

  it("refuses one endpoint's delivery cursor on another endpoint, and one link's event cursor on another link", async () => {
    const who = await t.createTenant();
    for (const kind of ['deliveries', 'events']) {
      const one = await seed(kind, who.organizationId);
      const two = await seed(kind, who.organizationId);
      await one.insert(3);
      const cursor = (await page(who, one.path, { limit: 1 })).nextCursor as string;
      expect((await page(who, one.path, { limit: 1, cursor })).offset).toBe(1);
      const res = await get(who, two.path, { cursor }).expect(422);
      expect(detailOf(res)).toEqual([expect.objectContaining({ type: 'value_error', loc: ['query', 'cursor'] })]);
    }
  });
});

describe("a session's updatedAt and its person's intent", () => {
  it("covers the session's own row: a new session of its person moves the person's intent and updatedAt, not the older session's (clients sync people for intent)", async () => {
    const who = await t.createTenant();
    const day = (days: number, minutes = 0) =>
      new Date(Date.now() - days * 86_400_000 + minutes * 60_000).toISOString();
    const older = newSessionId();
    const visit = (days: number, buyingIntent: string) =>
      sessionBody({ email: 'ada@acme.com', startTime: day(days), endTime: day(days, 30), buyingIntent });
    await ingest(t.server, who.key, older, visit(40, 'low')).expect(200);
    const before = (await get(who, `${SESSIONS}/${older}`, {}).expect(200)).body as SessionDetail;
    const since = await dbNow();
    const newer = newSessionId();
    await ingest(t.server, who.key, newer, visit(0, 'high')).expect(200);

    const after = (await get(who, `${SESSIONS}/${older}`, {}).expect(200)).body as SessionDetail;
    expect({ intentScore: after.intentScore, overallIntent: after.overallIntent }).not.toEqual({
      intentScore: before.intentScore,
      overallIntent: before.overallIntent,
    });
    expect(after.updatedAt).toBe(before.updatedAt);
    const sessions = (await get(who, SESSIONS, { updated_since: since }).expect(200)).body as SessionPage;
    expect(sessions.sessions.map((s) => s.id)).toEqual([newer]);
    const people = (await get(who, PEOPLE, { updated_since: since }).expect(200)).body as PeoplePage;
    expect(people.people).toEqual([expect.objectContaining({ id: before.personId, intentScore: after.intentScore })]);
  });
});
