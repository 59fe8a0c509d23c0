import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Response } from 'supertest';
import { metricsRegistry } from '../src/common/metrics/metrics-registry';
import { ReadinessService } from '../src/modules/health/readiness';
import type { Job, JobEnvelope, JobItemPage, Link } from './support/api-types';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * Public routes under load (docs/api.md §4.10, §8.7): `/l/{slug}` is limited per client address and
 * per link, share cards per client address, each answering 429 with Retry-After and the figures of
 * the limit that refused; `/readyz` and `/metrics` are not limited but cheap, their answer reused
 * for a second.
 */

const LIMITED = { detail: 'Rate limit or organization quota exceeded.' };
const PER_CLIENT = 5;
const PER_LINK = 8;
const CARDS_PER_CLIENT = 4;
const TERMINAL = ['completed', 'completed_with_errors', 'cancelled', 'failed'];

// Links are created by the app's workers and one card is rendered.
jest.setTimeout(120_000);

/** A client address of its own per test, so that no two tests or runs share a counter. */
const clientAddress = () => `10.${[...randomBytes(3)].join('.')}`;

function expectRefusedBy(res: Response, limit: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual(LIMITED);
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(
    Math.abs(Number(res.headers['x-ratelimit-reset']) - Math.floor(Date.now() / 1000) - retryAfter),
  ).toBeLessThanOrEqual(1);
  expect(res.headers.location).toBeUndefined();
}

const expectNoRateHeaders = (res: Response) => {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'])
    expect(res.headers[name]).toBeUndefined();
};

describe('public routes under load', () => {
  let t: TestApp;
  let who: Tenant;

  beforeAll(async () => {
    t = await createTestApp({
      APP_ROLE: 'all',
      TRUST_PROXY: 'loopback',
      LINK_OPENS_PER_CLIENT_PER_MINUTE: String(PER_CLIENT),
      LINK_OPENS_PER_LINK_PER_MINUTE: String(PER_LINK),
      THUMBNAIL_REQUESTS_PER_CLIENT_PER_MINUTE: String(CARDS_PER_CLIENT),
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
    });
    who = await t.createTenant(['custom_links:write']);
  });
  afterAll(() => t.close());

  const authed = (path: string) => request(t.server).get(path).set('x-api-key', who.key);
  /** Creates links through a creation job and returns them once it is done. */
  const createLinks = async (links: Record<string, unknown>[]): Promise<Link[]> => {
    const res = await request(t.server)
      .post('/api/v1/custom-links')
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ links })
      .expect(202);
    const jobId = (res.body as JobEnvelope).job.id;
    const job = await readUntil(
      async () => (await authed(`/api/v1/custom-link-jobs/${jobId}`).expect(200)).body as Job,
      (j) => TERMINAL.includes(j.status),
    );
    expect(job.status).toBe('completed');
    const items = (await authed(`/api/v1/custom-link-jobs/${jobId}/items`).expect(200)).body as JobItemPage;
    return Promise.all(
      items.items.map(
        async (item) => (await authed(`/api/v1/custom-links/${item.customLinkId}`).expect(200)).body as Link,
      ),
    );
  };
  const provided = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      firstName: `P${i}`,
      shareThumbnailUrl: 'https://cdn.example.com/card.png',
    }));
  const open = (path: string, from: string) => request(t.server).get(path).set('X-Forwarded-For', from).redirects(0);
  const pathOf = (url: string) => new URL(url).pathname;

  describe('GET /l/{slug}', () => {
    let first: Link;
    let second: Link;

    beforeAll(async () => {
      [first, second] = await createLinks(provided(2));
    });

    it(`answers ${PER_CLIENT} opens per client address a minute, then 429; other clients are served`, async () => {
      const from = clientAddress();
      for (let i = 0; i < PER_CLIENT; i++) {
        const res = await open(pathOf(first.url), from).expect(302);
        expectNoRateHeaders(res);
      }
      // Whatever link it asks for: the budget is the client's.
      expectRefusedBy(await open(pathOf(first.url), from), PER_CLIENT);
      expectRefusedBy(await open(pathOf(second.url), from), PER_CLIENT);
      await open(pathOf(second.url), clientAddress()).expect(302);
    });

    it('counts unknown slugs too: a client guessing slugs is refused like one opening a link', async () => {
      const from = clientAddress();
      for (let i = 0; i < PER_CLIENT; i++) await open(`/l/${randomUUID()}`, from).expect(404, { detail: 'Not Found' });
      expectRefusedBy(await open(`/l/${randomUUID()}`, from), PER_CLIENT);
      expectRefusedBy(await open(`/l/${'x'.repeat(5000)}`, from), PER_CLIENT);
    });

    it(`answers ${PER_LINK} opens per link a minute from all clients together, then 429; other links are served`, async () => {
      const [link, other] = await createLinks(provided(2));
      for (let i = 0; i < PER_LINK; i++) await open(pathOf(link.url), clientAddress()).expect(302);
      const from = clientAddress();
      expectRefusedBy(await open(pathOf(link.url), from), PER_LINK);
      // The refusal charged nothing to the client: it still has its whole budget.
      for (let i = 0; i < PER_CLIENT; i++) await open(pathOf(other.url), from).expect(302);
    });
  });

  describe('GET /thumbnails/{link_id}/{file}', () => {
    it('serves a card cacheably (public max-age, ETag, 304 on If-None-Match), and limits each client address', async () => {
      const [link] = await createLinks([{ firstName: 'Grace', lastName: 'Hopper', company: 'Navy' }]);
      const rendered = await readUntil(
        async () => (await authed(`/api/v1/custom-links/${link.id}`).expect(200)).body as Link,
        (l) => l.thumbnailStatus === 'generated',
      );
      const path = pathOf(rendered.shareThumbnailUrl as string);
      const from = clientAddress();

      const card = await request(t.server)
        .get(path)
        .set('X-Forwarded-For', from)
        .buffer(true)
        .expect(200)
        .expect('Content-Type', 'image/png');
      expect(card.headers['cache-control']).toBe('public, max-age=300');
      const etag = card.headers.etag;
      expect(etag).toBe(`"${/([0-9a-f]{64})\.png$/.exec(path)?.[1]}"`);
      expectNoRateHeaders(card);

      const unchanged = await request(t.server)
        .get(path)
        .set('X-Forwarded-For', from)
        .set('If-None-Match', etag)
        .expect(304);
      expect(unchanged.headers.etag).toBe(etag);
      expect(unchanged.headers['cache-control']).toBe('public, max-age=300');
      expect(unchanged.text ?? '').toBe('');
      await request(t.server).get(path).set('X-Forwarded-For', from).set('If-None-Match', '"other"').expect(200);

      await request(t.server)
        .get(`/thumbnails/${link.id}/${'0'.repeat(64)}.png`)
        .set('X-Forwarded-For', from)
        .expect(404);
      expectRefusedBy(await request(t.server).get(path).set('X-Forwarded-For', from), CARDS_PER_CLIENT);
      await request(t.server).get(path).set('X-Forwarded-For', clientAddress()).expect(200);
    });
  });

  describe('probes', () => {
    it('/readyz checks PostgreSQL and Redis once for a burst of probes, and again a second later', async () => {
      const checks = jest.spyOn(t.app.get(ReadinessService), 'check');
      try {
        const burst = await Promise.all(Array.from({ length: 30 }, () => request(t.server).get('/readyz')));
        expect(burst.map((res) => res.status)).toEqual(burst.map(() => 200));
        for (const res of burst) expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
        expect(checks).toHaveBeenCalledTimes(1);
        await request(t.server).get('/readyz').expect(200);
        expect(checks).toHaveBeenCalledTimes(1);
        const before = checks.mock.calls.length;
        await readUntil(
          async () => {
            await request(t.server).get('/readyz').expect(200);
            return checks.mock.calls.length;
          },
          (calls) => calls > before,
          3000,
        );
      } finally {
        checks.mockRestore();
      }
    });

    it('/metrics renders once for a burst of scrapes', async () => {
      // The app's first scrape may have happened in another test: start from a fresh rendering.
      const renders = jest.spyOn(metricsRegistry, 'metrics');
      try {
        await readUntil(
          async () => {
            await request(t.server).get('/metrics').expect(200);
            return renders.mock.calls.length;
          },
          (calls) => calls > 0,
          3000,
        );
        renders.mockClear();
        const burst = await Promise.all(Array.from({ length: 30 }, () => request(t.server).get('/metrics')));
        expect(burst.every((res) => res.status === 200 && res.text.includes('http_request_duration_seconds'))).toBe(
          true,
        );
        expect(renders.mock.calls.length).toBeLessThanOrEqual(1);
      } finally {
        renders.mockRestore();
      }
    });
  });
});
