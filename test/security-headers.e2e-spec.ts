import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Job, JobEnvelope, JobItemPage, Link } from './support/api-types';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * Issue 17 point 9: security headers (helmet) on every answer, `Cache-Control: no-store` on every
 * authenticated answer and every error while ETag polling still answers 304, public routes with
 * their own caching, and CORS only for the origins CORS_ORIGINS names (docs/DECISIONS.md).
 */

jest.setTimeout(120_000);

const PUBLIC_BASE_URL = 'https://go.headers.test';
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';
const API_CSP = "default-src 'none';frame-ancestors 'none'";
const ORIGIN = 'https://app.example.com';

/** The headers every answer of the API carries, whatever its status. */
function expectSecurityHeaders(res: request.Response): void {
  expect(res.headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'content-security-policy': API_CSP,
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'referrer-policy': 'no-referrer',
    'x-request-id': expect.any(String),
  });
  // Nothing that only means something for an HTML page (helmet sends these by default).
  for (const name of ['x-powered-by', 'x-xss-protection', 'x-download-options', 'origin-agent-cluster'])
    expect(res.headers[name]).toBeUndefined();
}

function expectNoCors(res: request.Response): void {
  for (const name of Object.keys(res.headers)) expect(name).not.toMatch(/^access-control-/);
}

describe('security and cache headers (no CORS_ORIGINS)', () => {
  let t: TestApp;
  let who: Tenant;

  beforeAll(async () => {
    // Workers in-process: share cards are rendered, so their public route can be read.
    t = await createTestApp({
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
      PUBLIC_BASE_URL,
    });
    who = await t.createTenant();
  });
  afterAll(() => t.close());

  const get = (path: string, key: string | null = who.key) =>
    key ? request(t.server).get(path).set('x-api-key', key) : request(t.server).get(path);

  it.each([
    ['an authenticated 200', () => get('/api/v1/sessions'), 200],
    ['a 401 without a key', () => get('/api/v1/sessions', null), 401],
    ['a 401 with an unknown key', () => get('/api/v1/sessions', `sk_live_${'0'.repeat(32)}`), 401],
    ['a 404 for an unknown route', () => get('/api/v1/nothing-here'), 404],
    ['a 404 for a resource of no one', () => get(`/api/v1/custom-links/${UNKNOWN_ID}`), 404],
    ['a 422', () => get('/api/v1/sessions?limit=many'), 422],
    ['a 405', () => request(t.server).put('/api/v1/sessions').set('x-api-key', who.key), 405],
  ] as const)(
    '%s carries the security headers, Cache-Control: no-store and no CORS headers',
    async (_label, send, status) => {
      const res = await send();
      expect(res.status).toBe(status);
      expectSecurityHeaders(res);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expectNoCors(res);
    },
  );

  it('answers OPTIONS 405 with Allow, not a CORS preflight', async () => {
    const res = await request(t.server)
      .options('/api/v1/sessions')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'GET')
      .expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expectSecurityHeaders(res);
    expectNoCors(res);
  });

  it('a polled job keeps ETag and 304 under no-store', async () => {
    const links = [{ firstName: 'Ada', company: 'Acme', shareThumbnailUrl: 'https://cdn.example.com/card.png' }];
    const created = await request(t.server)
      .post('/api/v1/custom-links')
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ links })
      .expect(202);
    expect(created.headers['cache-control']).toBe('no-store');
    const path = `/api/v1/custom-link-jobs/${(created.body as JobEnvelope).job.id}`;
    const done = await readUntil(
      () => get(path).expect(200),
      (res) => (res.body as Job).status === 'completed',
    );
    expect(done.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(done.headers['cache-control']).toBe('no-store');

    const again = await get(path).set('If-None-Match', done.headers.etag).expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(done.headers.etag);
    expect(again.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders(again);
  });

  it('share cards are public and cacheable, embeddable from other origins; a missing card is not cached', async () => {
    const created = await request(t.server)
      .post('/api/v1/custom-links')
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ links: [{ firstName: 'Ada', lastName: 'Lovelace', company: 'Acme' }] })
      .expect(202);
    const jobPath = `/api/v1/custom-link-jobs/${(created.body as JobEnvelope).job.id}`;
    await readUntil(
      () => get(jobPath).expect(200),
      (res) => (res.body as Job).status === 'completed',
      60_000,
    );
    const items = (await get(`${jobPath}/items`).expect(200)).body as JobItemPage;
    const link = (await get(`/api/v1/custom-links/${items.items[0].customLinkId}`).expect(200)).body as Link;
    expect(link.thumbnailStatus).toBe('generated');
    const cardPath = new URL(link.shareThumbnailUrl as string).pathname;

    const card = await request(t.server).get(cardPath).expect(200).expect('Content-Type', 'image/png');
    expect(card.headers['cache-control']).toBe('public, max-age=300');
    expect(card.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(card.headers['x-content-type-options']).toBe('nosniff');
    expect(card.headers['x-powered-by']).toBeUndefined();

    const missing = await request(t.server)
      .get(cardPath.replace(/[0-9a-f]{64}\.png$/, `${'0'.repeat(64)}.png`))
      .expect(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders(missing);

    const open = await request(t.server).get(new URL(link.url).pathname).redirects(0).expect(302);
    expect(open.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders(open);
  });

  it('operational routes carry the same headers', async () => {
    for (const path of ['/healthz', '/api/v1/openapi.json']) {
      const res = await request(t.server).get(path).expect(200);
      expectSecurityHeaders(res);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('the Swagger UI page gets a policy that lets it load its own scripts and styles', async () => {
    const page = await request(t.server)
      .get('/docs')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' https: 'unsafe-inline'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).not.toBe('no-store');
    const scripts = [...page.text.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      // Relative to the page's URL, /docs.
      const asset = await request(t.server).get(new URL(src, 'http://localhost/docs').pathname).expect(200);
      expect(asset.headers['cache-control']).not.toBe('no-store');
    }
  });
});

describe('CORS with CORS_ORIGINS', () => {
  let t: TestApp;
  let who: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: `${ORIGIN},http://localhost:5173`, RATE_LIMIT_PER_MINUTE: '100000' });
    who = await t.createTenant();
  });
  afterAll(() => t.close());

  it('answers a preflight from a listed origin with the methods and headers the API uses', async () => {
    const res = await request(t.server)
      .options('/api/v1/custom-links')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key')
      .expect(204);
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': ORIGIN,
      'access-control-allow-methods': 'GET,HEAD,POST,PUT,PATCH,DELETE',
      'access-control-allow-headers':
        'Authorization,X-API-Key,Content-Type,Idempotency-Key,If-None-Match,If-Match,X-Request-ID',
      'access-control-max-age': '600',
    });
    expect(res.headers.vary).toMatch(/Origin/);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expectSecurityHeaders(res);
  });

  it('lets a listed origin read the answer and the headers polling and limits need', async () => {
    const res = await request(t.server)
      .get('/api/v1/sessions')
      .set('Origin', 'http://localhost:5173')
      .set('x-api-key', who.key)
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-expose-headers']).toBe(
      'ETag,Location,Retry-After,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset,X-Request-ID,Idempotent-Replayed',
    );
    expect(res.headers['cache-control']).toBe('no-store');
    // Errors too: a browser client must be able to read a 401.
    const refused = await request(t.server).get('/api/v1/sessions').set('Origin', ORIGIN).expect(401);
    expect(refused.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('gives an origin that is not listed nothing to read', async () => {
    const res = await request(t.server)
      .get('/api/v1/sessions')
      .set('Origin', 'https://evil.example.com')
      .set('x-api-key', who.key)
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(t.server)
      .options('/api/v1/sessions')
      .set('Origin', 'https://evil.example.com')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});
