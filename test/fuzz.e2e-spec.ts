import fc from 'fast-check';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { DemoModule } from '../src/modules/demo/demo.module';
import { DemoSeedService } from '../src/modules/demo/demo-seed.service';
import {
  headerValue,
  pathSegment,
  queryString,
  requestBody,
  type Fixtures,
  type FuzzBody,
  type OpenApiDocument,
} from './support/hostile-input';
import { foldNow } from './support/fold';
import { describeRoute, registeredRoutes, type Route } from './support/router-routes';
import { tenantSnapshot, type TenantSnapshot } from './support/tenant-snapshot';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Issue 17, point 10: property-based fuzzing through HTTP. Every route the Nest router holds (read at
 * runtime: a new route is covered without touching this file) gets generated hostile input in its
 * path, query, headers and body (test/support/hostile-input.ts), with a key holding every scope,
 * without a key, or with a bogus one. Properties, for every request:
 * - never a 5xx;
 * - a 422 has the CONTRACT §1 shape; every other 4xx the service writes is `{"detail": string}`;
 * - every answer carries X-Request-ID (except Node's own 400/431 for a request it cannot parse);
 * - after a rejected request (4xx) the organization's data is unchanged (tenant-snapshot.ts);
 * and, at the end, another organization's data is unchanged by all of it.
 *
 * Fixed seed, FUZZ_RUNS cases (CI default below); `npm run fuzz -- --runs 100000 [--seed N]` for a long run.
 * The app runs as `api` with its own queue prefix, so no worker changes data between two snapshots.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 17);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
/** Statuses Node's HTTP parser answers by itself, before the app (no X-Request-ID, no JSON). */
const PARSER_STATUSES = [400, 431];
const ISSUE_LOCATIONS = ['path', 'query', 'header', 'body'];

jest.setTimeout(Math.max(300_000, RUNS * 200));

interface FuzzCase {
  route: Route;
  method: string;
  path: string;
  auth:
    | { kind: 'key'; header: 'x-api-key' | 'authorization' }
    | { kind: 'none' }
    | { kind: 'bogus'; header: string; value: string };
  headers: Record<string, string>;
  body: FuzzBody;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('fuzz: hostile input on every route (issue 17)', () => {
  let t: TestApp;
  let port: number;
  let agent: http.Agent;
  let routes: Route[];
  let doc: OpenApiDocument;
  let fixtures: Fixtures;
  let snapshots: TenantSnapshot;
  let tenant: { organizationId: string; key: string };
  let other: { organizationId: string; key: string };

  beforeAll(async () => {
    const unlimited = '100000000';
    t = await createTestApp(
      {
        RATE_LIMIT_PER_MINUTE: '1000000',
        LINK_MUTATIONS_PER_MINUTE: '1000000',
        TRANSCRIPT_DAILY_LIMIT: unlimited,
        LINK_CREATION_UNITS_PER_HOUR: unlimited,
        LINK_CREATION_UNITS_PER_DAY: unlimited,
        THUMBNAIL_RENDER_UNITS_PER_HOUR: unlimited,
        THUMBNAIL_RENDER_UNITS_PER_DAY: unlimited,
        // Jobs this app enqueues stay queued: no other spec's worker picks them up mid-run.
        QUEUE_PREFIX: `fuzz-${randomUUID()}`,
        // FUZZ_LOG_LEVEL=error shows the cause of a 5xx the suite finds.
        LOG_LEVEL: process.env.FUZZ_LOG_LEVEL ?? 'silent',
      },
      { imports: [DemoModule] },
    );
    const seeder = t.app.get(DemoSeedService);
    tenant = await seeder.seed();
    other = await seeder.seed();
    // The seeded events are appended to the event log; this app runs no workers (its jobs must stay
    // queued), so it folds them itself: no other spec's folder changes either organization mid-run.
    await foldNow(t.app, tenant.organizationId);
    await foldNow(t.app, other.organizationId);
    const db = t.app.get(DataSource);
    snapshots = await tenantSnapshot(db);
    fixtures = await fixturesOf(db, tenant.organizationId);
    routes = registeredRoutes(t.app);
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    port = (t.server.address() as AddressInfo).port;
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    doc = JSON.parse(
      (
        await send(port, agent, { method: 'GET', path: '/api/v1/openapi.json', headers: {}, body: undefined })
      ).body.toString('utf8'),
    ) as OpenApiDocument;
  });
  afterAll(async () => {
    agent?.destroy();
    await t?.close();
  });

  it('the walk sees the API (it is not vacuous) and the snapshot covers the tenant tables', () => {
    expect(routes.length).toBeGreaterThanOrEqual(40);
    expect(routes.map(describeRoute)).toEqual(
      expect.arrayContaining([
        'GET /l/:slug',
        'PATCH /api/v1/custom-links/:link_id',
        'PUT /api/v1/ingest/sessions/:session_id',
        'POST /api/v1/events',
      ]),
    );
    expect(snapshots.tables).toEqual(
      expect.arrayContaining([
        'organizations',
        'custom_links',
        'sessions',
        'session_transcripts',
        'people',
        'accounts',
        'campaigns',
        'link_events',
        'suggestion_groups',
      ]),
    );
    expect(fixtures.ids.length).toBeGreaterThan(10);
  });

  it(`never a 5xx, the 422 shape, X-Request-ID, and no change after a rejected request (${RUNS} cases, seed ${SEED})`, async () => {
    const statuses = new Map<number, number>();
    const perRoute = new Map<string, number>();
    const otherBefore = await snapshots.take(other.organizationId);
    let current = await snapshots.take(tenant.organizationId);
    let cases = 0;

    const property = fc.asyncProperty(fuzzCase(routes, doc, fixtures), async (c) => {
      const headers = { ...c.headers, ...authHeaders(c.auth, tenant.key) };
      const answer = await send(port, agent, { method: c.method, path: c.path, headers, body: bodyBytes(c.body) });
      cases++;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      perRoute.set(describeRoute(c.route), (perRoute.get(describeRoute(c.route)) ?? 0) + 1);
      const what = `${c.method} ${c.path.slice(0, 300)} (${describeRoute(c.route)}, auth ${c.auth.kind}) → ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`;

      expect([what, answer.status < 500]).toEqual([what, true]);
      const parserAnswer = PARSER_STATUSES.includes(answer.status) && answer.headers['x-request-id'] === undefined;
      if (!parserAnswer) expect([what, answer.headers['x-request-id']]).toEqual([what, expect.any(String)]);
      if (answer.status >= 400 && !parserAnswer && c.method !== 'HEAD') {
        const body = JSON.parse(answer.body.toString('utf8')) as { detail: unknown };
        if (answer.status === 422) expect([what, contractIssues(body)]).toEqual([what, []]);
        else expect([what, typeof body.detail]).toEqual([what, 'string']);
      }
      // An accepted batch of events is folded before the snapshot, as a worker would fold it.
      if (answer.status < 400) await foldNow(t.app, tenant.organizationId);
      const after = await snapshots.take(tenant.organizationId);
      if (answer.status >= 400) expect([what, after]).toEqual([what, current]);
      current = after;
    });
    await fc.assert(property, { seed: SEED, numRuns: RUNS });

    expect(await snapshots.take(other.organizationId)).toBe(otherBefore);
    const fiveHundreds = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
    const histogram = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    process.stdout.write(
      `fuzz: ${routes.length} routes, ${cases} cases, ${fiveHundreds} 5xx (seed ${SEED}; statuses ${histogram})\n`,
    );

    // Most cases reach the routes' own checks: limits do not hide them, and every route is exercised.
    expect(statuses.get(429) ?? 0).toBeLessThan(cases * 0.02);
    if (RUNS >= routes.length * 20)
      expect(routes.filter((route) => !perRoute.has(describeRoute(route))).map(describeRoute)).toEqual([]);
  });
});

/** One request: a route (sometimes with another method), encoded path parameters, a query, headers and a body. */
function fuzzCase(routes: Route[], doc: OpenApiDocument, fixtures: Fixtures): fc.Arbitrary<FuzzCase> {
  // One arbitrary per route, built once: building them per case cost as much as sending the request.
  return fc.oneof(...routes.map((route) => caseFor(route, doc, fixtures)));
}

function caseFor(route: Route, doc: OpenApiDocument, fixtures: Fixtures): fc.Arbitrary<FuzzCase> {
  const operation = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method];
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const schema = operation?.requestBody?.content?.['application/json']?.schema;
  const queryParameters = (operation?.parameters ?? []).filter((p) => p.in === 'query');
  return fc.record({
    route: fc.constant(route),
    method: fc.oneof(
      { weight: 9, arbitrary: fc.constant(route.method.toUpperCase()) },
      { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
    ),
    path: fc
      .tuple(fc.tuple(...names.map((name) => pathSegment(name, fixtures))), queryString(queryParameters, doc, fixtures))
      .map(([segments, query]) => {
        let index = 0;
        return `${route.path.replace(/:\w+/g, () => segments[index++])}${query}`;
      }),
    auth: fc.oneof(
      {
        weight: 8,
        arbitrary: fc.constantFrom<FuzzCase['auth']>(
          { kind: 'key', header: 'x-api-key' },
          { kind: 'key', header: 'authorization' },
        ),
      },
      { weight: 1, arbitrary: fc.constant<FuzzCase['auth']>({ kind: 'none' }) },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('bogus' as const),
          header: fc.constantFrom('x-api-key', 'authorization'),
          value: headerValue(),
        }),
      },
    ),
    headers: fc.record(
      {
        'idempotency-key': headerValue(),
        'if-none-match': headerValue(),
        'x-request-id': headerValue(),
        'user-agent': headerValue(),
        accept: headerValue(),
      },
      { requiredKeys: [] },
    ),
    body: requestBody(schema, doc, fixtures),
  });
}

function authHeaders(auth: FuzzCase['auth'], key: string): Record<string, string> {
  switch (auth.kind) {
    case 'key':
      return auth.header === 'x-api-key' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
    case 'bogus':
      return { [auth.header]: auth.header === 'authorization' ? `Bearer ${auth.value}` : auth.value };
    case 'none':
      return {};
  }
}

function bodyBytes(body: FuzzBody): { bytes: Buffer; contentType: string | null } | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'json':
      return { bytes: Buffer.from(JSON.stringify(body.value) ?? 'null', 'utf8'), contentType: 'application/json' };
    case 'raw':
      return { bytes: body.bytes, contentType: body.contentType };
  }
}

/** What is wrong with a 422 body against CONTRACT §1.1: `{"detail":[{type, loc, msg, input, ctx?}]}`; [] when nothing. */
function contractIssues(body: { detail: unknown }): string[] {
  const problems: string[] = [];
  if (!Array.isArray(body.detail) || body.detail.length === 0) return ['detail is not a non-empty list'];
  for (const [index, issue] of (body.detail as Record<string, unknown>[]).entries()) {
    const keys = Object.keys(issue).sort();
    if (keys.join() !== 'input,loc,msg,type' && keys.join() !== 'ctx,input,loc,msg,type')
      problems.push(`${index}: keys ${keys.join()}`);
    if (typeof issue.type !== 'string' || typeof issue.msg !== 'string')
      problems.push(`${index}: type/msg not strings`);
    const loc = issue.loc as unknown[];
    if (
      !Array.isArray(loc) ||
      !ISSUE_LOCATIONS.includes(loc[0] as string) ||
      !loc.every((part) => typeof part === 'string' || Number.isInteger(part))
    ) {
      problems.push(`${index}: loc ${JSON.stringify(loc)}`);
    }
    if ('ctx' in issue && (issue.ctx === null || typeof issue.ctx !== 'object' || Array.isArray(issue.ctx)))
      problems.push(`${index}: ctx not an object`);
  }
  return problems;
}

/** The tenant's ids, slugs and domains, so generated requests also name things that exist. */
async function fixturesOf(db: DataSource, organizationId: string): Promise<Fixtures> {
  const column = async (sql: string) => ((await db.query(sql, [organizationId])) as { v: string }[]).map((r) => r.v);
  const ids = (
    await Promise.all(
      ['custom_links', 'sessions', 'campaigns', 'custom_link_jobs', 'suggestion_groups', 'people', 'publish_jobs'].map(
        (table) => column(`SELECT id::text AS v FROM ${table} WHERE organization_id = $1 LIMIT 20`),
      ),
    )
  ).flat();
  return {
    ids,
    slugs: await column('SELECT slug AS v FROM custom_links WHERE organization_id = $1 LIMIT 20'),
    domains: await column('SELECT account_domain AS v FROM accounts WHERE organization_id = $1 LIMIT 20'),
    cardFiles: [`${randomBytes(32).toString('hex')}.png`],
    words: [
      ...(await column(
        'SELECT email AS v FROM custom_links WHERE organization_id = $1 AND email IS NOT NULL LIMIT 10',
      )),
      'Demo outreach',
      'qualified',
      'high',
      'created_at',
      'asc',
      'move',
      'intro',
    ],
  };
}

type Outgoing = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: { bytes: Buffer; contentType: string | null } | undefined;
};

/**
 * One request through node:http: the path goes out byte for byte, as generated. A kept-alive
 * socket the server closed just before reuse is retried once on a new one (Node's documented race).
 */
async function send(port: number, agent: http.Agent, request: Outgoing): Promise<Answer> {
  try {
    return await sendOnce(port, agent, request);
  } catch (error) {
    if ((error as { reusedSocket?: boolean }).reusedSocket) return sendOnce(port, agent, request);
    throw error;
  }
}

function sendOnce(port: number, agent: http.Agent, request: Outgoing): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...request.headers };
    // Node answers a head over its limit with 431 and closes the socket at once: a body still being
    // written would turn that answer into ECONNRESET. Such a request goes without its body.
    const head =
      Buffer.byteLength(`${request.method} ${request.path} HTTP/1.1\r\n`) +
      Object.entries(headers).reduce((n, [k, v]) => n + Buffer.byteLength(`${k}: ${v}\r\n`, 'latin1'), 0);
    if (request.body && head < http.maxHeaderSize - 512) {
      headers['content-length'] = request.body.bytes.length;
      if (request.body.contentType !== null) headers['content-type'] = request.body.contentType;
    }
    const req = http.request(
      { host: '127.0.0.1', port, method: request.method, path: request.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(60_000, () =>
      req.destroy(new Error(`no answer within 60 s: ${request.method} ${request.path.slice(0, 200)}`)),
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      reject(Object.assign(error, { reusedSocket: req.reusedSocket && error.code === 'ECONNRESET' })),
    );
    req.end(head < http.maxHeaderSize - 512 ? request.body?.bytes : undefined);
  });
}
