import { Pool } from 'pg';
import request from 'supertest';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { insertLinks } from './support/aggregates';
import type { Export } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { ExportsRepository } from '../src/modules/exports/exports.repository';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';

/** Exports of filtered lists (issue 20 point 5). */

const EXPORTS = '/api/v1/exports';

let t: TestApp;
let pool: Pool;
let tenant: Tenant;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ APP_ROLE: 'all', RATE_LIMIT_PER_MINUTE: '100000', LOG_LEVEL: 'warn' });
  pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  tenant = await t.createTenant();
});

afterAll(async () => {
  await pool.end();
  await t.close();
});

const auth = (who: Tenant) => ({ Authorization: `Bearer ${who.key}` });

function create(who: Tenant, body: object, key: string | null = `export-${++seq}-${Math.random()}`) {
  const req = request(t.server).post(EXPORTS).set(auth(who));
  return (key === null ? req : req.set('Idempotency-Key', key)).send(body);
}

/** Starts an export, waits for it to finish, and returns it. */
async function exported(who: Tenant, body: object): Promise<Export> {
  const res = await create(who, body).expect(202);
  expect(res.headers.location).toBe(`${EXPORTS}/${res.body.id}`);
  return readUntil(
    async () =>
      (
        await request(t.server)
          .get(res.headers.location as string)
          .set(auth(who))
          .expect(200)
      ).body as Export,
    (e) => e.status === 'completed' || e.status === 'failed',
  );
}

/** The file, asking for plain text. */
async function download(who: Tenant, url: string): Promise<string> {
  const res = await request(t.server)
    .get(url)
    .set(auth(who))
    .set('Accept-Encoding', 'identity')
    .buffer(true)
    .parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
  expect(res.status).toBe(200);
  expect(res.headers['content-encoding']).toBeUndefined();
  return (res.body as Buffer).toString('utf8');
}

/** Every item of a list, through its cursor pages. */
async function listAll(
  who: Tenant,
  path: string,
  query: Record<string, string>,
  key: 'sessions' | 'customLinks' | 'people' | 'accounts' | 'events',
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const res = await request(t.server)
      .get(path)
      .query({ ...query, limit: 200, ...(cursor ? { cursor } : {}) })
      .set(auth(who))
      .expect(200);
    items.push(...(res.body[key] as Record<string, unknown>[]));
    cursor = (res.body.pagination ?? res.body).nextCursor as string | null;
  } while (cursor !== null);
  return items;
}

/** A minimal RFC 4180 reader: rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  expect(cell).toBe('');
  return rows;
}

describe('session exports', () => {
  const ids: string[] = [];

  beforeAll(async () => {
    const bodies = [
      sessionBody({ name: '=HYPERLINK("http://evil.example","x")', business: 'Acme, "Inc"', email: 'q1@acme.com' }),
      sessionBody({ name: '+cmd', business: 'Line\nbreak', email: 'q2@acme.com' }),
      sessionBody({
        name: '-2+3',
        business: '@SUM(1)',
        email: 'q3@acme.com',
        startTime: '2026-11-21T10:00:00.000Z',
        endTime: '2026-11-21T10:30:00.000Z',
      }),
      sessionBody({ qualificationStatus: 'unqualified', email: 'u1@acme.com' }),
    ];
    for (const body of bodies) {
      const id = newSessionId();
      await ingest(t.server, tenant.key, id, body).expect((res) => expect([200, 201]).toContain(res.status));
      ids.push(id);
    }
  });

  it('NDJSON holds exactly the filtered list, values verbatim', async () => {
    const filters = { qualification_status: 'qualified' };
    const done = await exported(tenant, { resource: 'sessions', format: 'ndjson', filters });
    expect(done).toMatchObject({ status: 'completed', rowCount: 3, downloadUrl: `${EXPORTS}/${done.id}/download` });
    expect(new Date(done.expiresAt as string).getTime() - new Date(done.completedAt as string).getTime()).toBe(
      24 * 3600 * 1000,
    );
    const lines = (await download(tenant, done.downloadUrl as string)).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual(
      await listAll(tenant, '/api/v1/sessions', filters, 'sessions'),
    );
    expect(lines.join('\n')).toContain('"name":"=HYPERLINK(');
  });

  it('CSV has the header, RFC 4180 quoting and neutralised formulas, row for row with the list', async () => {
    const filters = { qualification_status: 'qualified' };
    const done = await exported(tenant, { resource: 'sessions', format: 'csv', filters });
    const [header, ...rows] = parseCsv(await download(tenant, done.downloadUrl as string));
    expect(header.slice(0, 3)).toEqual(['id', 'displayId', 'startTime']);
    expect(header).toContain('updatedAt');
    const listed = await listAll(tenant, '/api/v1/sessions', filters, 'sessions');
    expect(rows.map((r) => r[0])).toEqual(listed.map((s) => s.id));
    const column = (name: string) => rows.map((r) => r[header.indexOf(name)]);
    expect(column('name').sort()).toEqual([`'+cmd`, `'-2+3`, `'=HYPERLINK("http://evil.example","x")`].sort());
    expect(column('business').sort()).toEqual([`'@SUM(1)`, 'Acme, "Inc"', 'Line\nbreak'].sort());
    expect(rows.every((r) => r.length === header.length)).toBe(true);
  });

  it('serves the stored gzip as-is when the client accepts gzip', async () => {
    const done = await exported(tenant, { resource: 'sessions', format: 'ndjson', filters: {} });
    // Raw HTTP: supertest would unzip the body before the test saw it.
    if (!t.server.listening) await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    const { port } = t.server.address() as AddressInfo;
    const res = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            path: done.downloadUrl as string,
            headers: { ...auth(tenant), 'Accept-Encoding': 'gzip' },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (c: Buffer) => chunks.push(c));
            response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          },
        )
        .on('error', reject);
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    expect(res.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const ids = gunzipSync(res.body)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toEqual((await listAll(tenant, '/api/v1/sessions', {}, 'sessions')).map((s) => s.id));
    expect(ids).toHaveLength(4);
  });

  it('answers ETag and 304 like jobs', async () => {
    const done = await exported(tenant, { resource: 'sessions', format: 'csv', filters: {} });
    const first = await request(t.server).get(`${EXPORTS}/${done.id}`).set(auth(tenant)).expect(200);
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers['retry-after']).toBeUndefined();
    const again = await request(t.server)
      .get(`${EXPORTS}/${done.id}`)
      .set(auth(tenant))
      .set('If-None-Match', first.headers.etag as string);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
  });
});

describe('custom link exports', () => {
  it('pages through a list longer than a read page, filtered, in the list order', async () => {
    const who = await t.createTenant();
    await insertLinks(
      pool,
      who.organizationId,
      Array.from({ length: 2300 }, (_, i) => ({ campaignId: null, i })),
    );
    await pool.query(
      `UPDATE custom_links SET display_name = '=1+2' WHERE organization_id = $1 AND display_name = 'Bulk 1'`,
      [who.organizationId],
    );
    const filters = { active: 'true', order: 'asc' };
    const done = await exported(who, { resource: 'custom_links', format: 'csv', filters });
    const listed = await listAll(who, '/api/v1/custom-links', filters, 'customLinks');
    expect(listed.length).toBeGreaterThan(2000);
    expect(done.rowCount).toBe(listed.length);
    const [header, ...rows] = parseCsv(await download(who, done.downloadUrl as string));
    expect(header).toContain('engagement.stage');
    expect(rows.map((r) => r[header.indexOf('id')])).toEqual(listed.map((l) => l.id));
    expect(rows.map((r) => r[header.indexOf('engagement.stage')])).toEqual(
      listed.map((l) => (l.engagement as { stage: string }).stage),
    );
    expect(rows.map((r) => r[header.indexOf('displayName')])).toContain(`'=1+2`);
  });
});

describe('people, accounts and link events', () => {
  it('exports people and accounts as their lists hold them', async () => {
    const who = await t.createTenant();
    for (const email of ['ada@acme.com', 'bob@acme.com', 'eve@globex.com'])
      await ingest(t.server, who.key, newSessionId(), sessionBody({ email })).expect((res) =>
        expect([200, 201]).toContain(res.status),
      );
    const people = await listAll(who, '/api/v1/people', {}, 'people');
    expect(people.length).toBeGreaterThan(0);
    const peopleFile = await exported(who, { resource: 'people', format: 'ndjson', filters: {} });
    expect(
      (await download(who, peopleFile.downloadUrl as string))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(people);
    const accounts = await listAll(who, '/api/v1/accounts', {}, 'accounts');
    expect(accounts.length).toBe(2);
    const accountFile = await exported(who, { resource: 'accounts', format: 'csv', filters: {} });
    const [header, ...rows] = parseCsv(await download(who, accountFile.downloadUrl as string));
    expect(rows.map((r) => r[header.indexOf('accountDomain')])).toEqual(accounts.map((a) => a.accountDomain));
  });

  it("exports a link's filtered event timeline; link_id is required and must be the organization's", async () => {
    const who = await t.createTenant();
    const [linkId] = await insertLinks(pool, who.organizationId, [{ campaignId: null, i: 1 }]);
    const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 9, n)).toISOString();
    const events = [
      { eventId: 'e-1', type: 'open', customLinkId: linkId, occurredAt: at(1) },
      {
        eventId: 'e-2',
        type: 'page_view',
        customLinkId: linkId,
        occurredAt: at(2),
        pageViewId: 'pv-1',
        visitorId: 'v-1',
      },
      { eventId: 'e-3', type: 'open', customLinkId: linkId, occurredAt: at(3), bot: true },
      { eventId: 'e-4', type: 'open', customLinkId: linkId, occurredAt: at(4) },
    ];
    await request(t.server).post('/api/v1/events').set(auth(who)).send({ events }).expect(202);
    const filters = { link_id: linkId, include_bots: 'true', type: 'open' };
    const query = { include_bots: 'true', type: 'open' };
    const listed = await readUntil(
      () => listAll(who, `/api/v1/custom-links/${linkId}/events`, query, 'events'),
      (items) => items.length === 3,
    );
    const done = await exported(who, { resource: 'link_events', format: 'csv', filters });
    const [header, ...rows] = parseCsv(await download(who, done.downloadUrl as string));
    expect(header).toEqual([
      'eventId',
      'type',
      'occurredAt',
      'visitorId',
      'sessionId',
      'pageViewId',
      'bot.isBot',
      'bot.reason',
      'internal.isInternal',
      'internal.reason',
      'country',
      'deviceType',
      'browser',
      'os',
      'referrerDomain',
      'utm.source',
      'utm.medium',
      'utm.campaign',
      'utm.term',
      'utm.content',
    ]);
    expect(rows.map((r) => r[0])).toEqual(listed.map((e) => e.eventId));
    const missing = await create(who, { resource: 'link_events', format: 'csv', filters: {} }).expect(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'filters', 'link_id']);
    const elsewhere = await create(tenant, {
      resource: 'link_events',
      format: 'csv',
      filters: { link_id: linkId },
    }).expect(422);
    expect(elsewhere.body.detail[0].loc).toEqual(['body', 'filters', 'link_id']);
  });
});

describe('the rules of POST /api/v1/exports', () => {
  it('requires an Idempotency-Key, and replays a repeat', async () => {
    const missing = await create(tenant, { resource: 'sessions', format: 'csv' }, null).expect(400);
    expect(missing.body.detail).toBe('The operation requires an Idempotency-Key header.');
    const first = await create(tenant, { resource: 'sessions', format: 'csv' }, 'same-export-key').expect(202);
    const replay = await create(tenant, { resource: 'sessions', format: 'csv' }, 'same-export-key').expect(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
  });

  it("validates filters as the list validates its query, at ['body','filters',name]", async () => {
    const res = await create(tenant, {
      resource: 'sessions',
      format: 'csv',
      filters: { qualification_status: 'maybe', limit: '10' },
    }).expect(422);
    expect(res.body.detail.map((issue: { loc: unknown[] }) => issue.loc)).toEqual([['body', 'filters', 'limit']]);
    const bad = await create(tenant, {
      resource: 'sessions',
      format: 'csv',
      filters: { qualification_status: 'maybe' },
    }).expect(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'filters', 'qualification_status']);
    const unknown = await create(tenant, { resource: 'everything', format: 'xlsx' }).expect(422);
    expect(unknown.body.detail.map((issue: { loc: unknown[] }) => issue.loc)).toEqual([
      ['body', 'resource'],
      ['body', 'format'],
    ]);
  });

  it("needs the exported list's read scope", async () => {
    const org = await t.createTenant(['custom_links:read']);
    await create(org, { resource: 'sessions', format: 'csv' }).expect(403);
    await create(org, { resource: 'custom_links', format: 'csv' }).expect(202);
  });
});

describe('a run started over', () => {
  it('deletes the partial chunks of the run before it, and the superseded run can neither write nor complete', async () => {
    const repo = t.app.get(ExportsRepository);
    const who = await t.createTenant();
    const id = randomUUID();
    await repo.insert(who.organizationId, id, 'sessions', 'csv', {});
    const lease = { owner: 'test', leaseMs: 60_000 };
    const [first, second] = [randomUUID(), randomUUID()];
    expect(await repo.startRun(who.organizationId, id, first, lease)).not.toBeNull();
    expect(await repo.appendChunk(who.organizationId, id, first, 0, Buffer.from('partial'))).toBe(true);
    expect(await repo.startRun(who.organizationId, id, second, lease)).not.toBeNull();
    expect(await repo.chunkAfter(who.organizationId, id, first, -1)).toBeNull();
    expect(await repo.appendChunk(who.organizationId, id, first, 1, Buffer.from('late'))).toBe(false);
    expect(await repo.complete(who.organizationId, id, first, 1, 1000)).toBe(false);
    expect(await repo.appendChunk(who.organizationId, id, second, 0, Buffer.from('whole'))).toBe(true);
    expect(await repo.complete(who.organizationId, id, second, 1, 1000)).toBe(true);
    expect((await repo.chunkAfter(who.organizationId, id, second, -1))?.data.toString()).toBe('whole');
    expect(await repo.startRun(who.organizationId, id, randomUUID(), lease)).toBeNull();
  });
});

describe('tenancy', () => {
  it('answers another organization 404 and no key 401, on the export and its file', async () => {
    const done = await exported(tenant, { resource: 'sessions', format: 'csv', filters: {} });
    const other = await t.createTenant();
    for (const path of [`${EXPORTS}/${done.id}`, done.downloadUrl as string]) {
      const res = await request(t.server).get(path).set(auth(other)).expect(404);
      expect(res.body.detail).toBe("Export not found for the key's organization.");
      await request(t.server).get(path).expect(401);
    }
  });

  it('answers 404 once the export expired', async () => {
    const done = await exported(tenant, { resource: 'sessions', format: 'csv', filters: {} });
    await pool.query(`UPDATE exports SET expires_at = now() - interval '1 second' WHERE id = $1`, [done.id]);
    await request(t.server).get(`${EXPORTS}/${done.id}`).set(auth(tenant)).expect(404);
    await request(t.server)
      .get(done.downloadUrl as string)
      .set(auth(tenant))
      .expect(404);
    expect(await t.app.get(ExportsRepository).deleteExpired(500)).toBeGreaterThanOrEqual(1);
    const left = await pool.query(
      `SELECT (SELECT count(*) FROM exports WHERE id = $1)::int AS exports, (SELECT count(*) FROM export_chunks WHERE export_id = $1)::int AS chunks`,
      [done.id],
    );
    expect(left.rows[0]).toEqual({ exports: 0, chunks: 0 });
  });
});
