import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { hashApiKey } from '../src/common/auth/api-key';
import { WindowCounter } from '../src/common/counters/window-counter';
import { endOfWindowOpenedAt, utcDayOf } from '../src/common/counters/windows';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';
import { redisFor } from './support/redis-cluster';
import type { RedisClient } from '../src/common/redis/redis.module';

/**
 * Every limit is exact across two API instances under parallel load (issue 18 point 6; docs/api.md
 * §8): two apps on one PostgreSQL and one Redis, as behind a load balancer, and a burst of parallel
 * requests spread over both. Exactly the budget passes, the refused requests charge nothing, and
 * X-RateLimit-Reset is the window's end to the second, Retry-After the seconds to it.
 *
 * The Redis windows open with their first charge: each burst opens its own (fresh key or
 * organization) and lasts far less than the window, so a window's end cannot split it; every answer
 * naming the same X-RateLimit-Reset shows that it did not. The transcript quota's day is the UTC day.
 */

const LIMITED = { detail: 'Rate limit or organization quota exceeded.' };
const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const LINKS = '/api/v1/custom-links';
const JOBS = '/api/v1/custom-link-jobs';
// Workers and card renders are not these tests' subject: no worker listens on this queue prefix, so
// link creation jobs stay queued (and cancellable) whatever else the run is doing.
const NO_WORKER = { QUEUE_PREFIX: `${process.env.QUEUE_PREFIX ?? 'bull'}-limits-${randomUUID().slice(0, 8)}` };

/** When a burst was sent and when its last answer came: the server's clock read in between. */
interface Span {
  sentAt: number;
  receivedAt: number;
}

async function burst(count: number, send: (i: number) => request.Test): Promise<{ responses: Response[]; span: Span }> {
  const sentAt = Date.now();
  const responses = await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
  return { responses, span: { sentAt, receivedAt: Date.now() } };
}

const statusCounts = (responses: Response[]) =>
  responses.reduce<Record<number, number>>(
    (counts, res) => ({ ...counts, [res.status]: (counts[res.status] ?? 0) + 1 }),
    {},
  );

/**
 * A 429 with the figures of the limit that refused it: Reset is exactly `resetAt`, and Retry-After
 * the whole seconds from the server's clock (read within `span`) to it, rounded up.
 */
function expectRefusal(res: Response, limit: number, resetAt: number, span: Span): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 429, body: LIMITED });
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  expect(res.headers['x-ratelimit-reset']).toBe(String(resetAt));
  const retryAfter = Number(res.headers['retry-after']);
  expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(retryAfter).toBeGreaterThanOrEqual(resetAt - Math.floor(span.receivedAt / 1000));
  expect(retryAfter).toBeLessThanOrEqual(resetAt - Math.floor(span.sentAt / 1000));
}

describe('limits across two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let redis: RedisClient;
  let db: DataSource;
  const instance = (i: number) => (i % 2 ? b : a).server;

  beforeAll(async () => {
    // The defaults, stated: 120 requests per minute per key, 10 link mutations per minute per organization.
    const env = { ...NO_WORKER, RATE_LIMIT_PER_MINUTE: '120', LINK_MUTATIONS_PER_MINUTE: '10' };
    a = await createTestApp(env);
    b = await createTestApp(env);
    // Listening once lets parallel requests share one server each instead of supertest starting one per request.
    await Promise.all([a.app.listen(0), b.app.listen(0)]);
    redis = redisFor(a.config);
    db = a.app.get(DataSource);
  });

  afterAll(async () => {
    await redis.quit();
    await Promise.all([a.close(), b.close()]);
  });

  /** The window's end as Redis holds it (the key's expiry), in Unix seconds. */
  const resetOf = async (key: string): Promise<number> => {
    const endsAt = await redis.pexpiretime(key);
    expect(endsAt).toBeGreaterThan(0);
    expect(endsAt % 1000).toBe(0);
    return endsAt / 1000;
  };

  it('request rate: 300 parallel requests with one key at 120/min → exactly 120 × 200 and 180 × 429, and Redis counts 120', async () => {
    const { key } = await a.createTenant(['custom_links:read']);
    const [{ id: keyId }] = await db.query<{ id: string }[]>(`SELECT id FROM api_keys WHERE key_hash = $1`, [
      hashApiKey(key),
    ]);

    const { responses, span } = await burst(300, (i) => request(instance(i)).get(CAMPAIGNS).set('x-api-key', key));
    expect(statusCounts(responses)).toEqual({ 200: 120, 429: 180 });
    // The 429s charged nothing.
    expect(await redis.get(`rate:default:${keyId}`)).toBe('120');

    // One window, whose end every answer names: the key's expiry, on a whole second.
    const resetAt = await resetOf(`rate:default:${keyId}`);
    expect(new Set(responses.map((res) => res.headers['x-ratelimit-reset']))).toEqual(new Set([String(resetAt)]));
    // Opened by the burst's first request: 60 s after it, rounded down to the second.
    expect(resetAt).toBeGreaterThanOrEqual(Math.floor((span.sentAt + 60_000) / 1000));
    expect(resetAt).toBeLessThanOrEqual(Math.floor((span.receivedAt + 60_000) / 1000));
    const remaining = responses
      .filter((res) => res.status === 200)
      .map((res) => Number(res.headers['x-ratelimit-remaining']));
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    for (const res of responses.filter((r) => r.status === 429)) expectRefusal(res, 120, resetAt, span);
  });

  it('link mutations: 40 parallel campaign creations at 10/min → exactly 10 × 201 and 30 × 429; 10 campaigns exist and Redis counts 10', async () => {
    const who = await a.createTenant(['custom_links:read', 'custom_links:write']);
    const { responses, span } = await burst(40, (i) =>
      request(instance(i))
        .post(CAMPAIGNS)
        .set('x-api-key', who.key)
        .send({ name: `Burst ${i}` }),
    );
    expect(statusCounts(responses)).toEqual({ 201: 10, 429: 30 });
    const key = `limit:link-mutations:${who.organizationId}`;
    expect(await redis.get(key)).toBe('10');
    const listed = await request(b.server).get(CAMPAIGNS).set('x-api-key', who.key).expect(200);
    expect((listed.body as { campaigns: unknown[] }).campaigns).toHaveLength(10);
    const resetAt = await resetOf(key);
    for (const res of responses.filter((r) => r.status === 429)) expectRefusal(res, 10, resetAt, span);
  });

  describe('organization quotas', () => {
    let fast: { a: TestApp; b: TestApp };

    beforeAll(async () => {
      // Request rate and link mutations out of the way, so that only the quota under test refuses.
      const env = {
        ...NO_WORKER,
        RATE_LIMIT_PER_MINUTE: '100000',
        LINK_MUTATIONS_PER_MINUTE: '100000',
        TRANSCRIPT_DAILY_LIMIT: '25',
        LINK_CREATION_UNITS_PER_HOUR: '50',
        THUMBNAIL_RENDER_UNITS_PER_HOUR: '30',
      };
      fast = { a: await createTestApp(env), b: await createTestApp(env) };
      await Promise.all([fast.a.app.listen(0), fast.b.app.listen(0)]);
    });
    afterAll(async () => {
      await Promise.all([fast.a.close(), fast.b.close()]);
    });
    const on = (i: number) => (i % 2 ? fast.b : fast.a).server;

    it('transcript reads: 100 parallel reads at 25/day → exactly 25 × 200 and 75 × 429 resetting at the next UTC midnight; PostgreSQL counts 25', async () => {
      const who = await fast.a.createTenant();
      const sessionId = newSessionId();
      await ingest(
        fast.a.server,
        who.key,
        sessionId,
        sessionBody({ transcript: { entries: [{ speaker: 'agent', text: 'Hello.', sequenceNumber: 1 }] } }),
      ).expect(200);

      const { responses, span } = await burst(100, (i) =>
        request(on(i)).get(`/api/v1/sessions/${sessionId}/transcript`).set('x-api-key', who.key),
      );
      expect(statusCounts(responses)).toEqual({ 200: 25, 429: 75 });
      const [{ reads }] = await db.query<{ reads: number }[]>(
        `SELECT reads FROM transcript_daily_reads WHERE organization_id = $1`,
        [who.organizationId],
      );
      expect(reads).toBe(25);

      // The next 00:00:00 UTC, to the second (should the burst straddle a midnight, the later one).
      const midnight = utcDayOf(span.receivedAt).endsAt / 1000;
      for (const res of responses.filter((r) => r.status === 429)) expectRefusal(res, 25, midnight, span);
    });

    describe('link creation and render units (hourly 50 creation, 30 render units)', () => {
      /** Three links, two of which ask for a card render: 3 creation units and 2 render units. */
      const threeLinks = (tag: string) => ({
        links: [
          { firstName: 'Ada', lastName: 'One', company: 'Co', externalId: `${tag}-1` },
          { firstName: 'Bob', lastName: 'Two', company: 'Co', externalId: `${tag}-2` },
          {
            firstName: 'Cy',
            lastName: 'Three',
            company: 'Co',
            externalId: `${tag}-3`,
            shareThumbnailUrl: 'https://cdn.example.com/card.png',
          },
        ],
      });
      const create = (i: number, who: Tenant, tag: string) =>
        request(on(i))
          .post(LINKS)
          .set('x-api-key', who.key)
          .set('Idempotency-Key', randomUUID())
          .send(threeLinks(`${tag}-${i}`));
      const unitsOf = async (organizationId: string) => {
        const keys = ['link-creation:hour', 'link-creation:day', 'thumbnail-render:hour', 'thumbnail-render:day'].map(
          (kind) => `limit:${kind}:{${organizationId}}`,
        );
        const [creationHour, creationDay, renderHour, renderDay] = await redis.mget(...keys);
        return { creationHour, creationDay, renderHour, renderDay };
      };
      const jobsOf = async (who: Tenant): Promise<{ id: string; status: string }[]> => {
        const res = await request(fast.a.server).get(`${JOBS}?limit=200`).set('x-api-key', who.key).expect(200);
        return (res.body as { jobs: { id: string; status: string }[] }).jobs;
      };

      it('30 parallel requests of 3 links: exactly 15 reserved (the render units bind), the others charge nothing; cancelling gives back exactly', async () => {
        const who = await fast.a.createTenant(['custom_links:read', 'custom_links:write']);

        const first = await burst(30, (i) => create(i, who, 'first'));
        expect(statusCounts(first.responses)).toEqual({ 202: 15, 429: 15 });
        // 15 × 3 creation units and 15 × 2 render units. Requests refused by the render window after
        // their creation units were charged gave those back.
        expect(await unitsOf(who.organizationId)).toEqual({
          creationHour: '45',
          creationDay: '45',
          renderHour: '30',
          renderDay: '30',
        });
        const jobs = await jobsOf(who);
        expect(jobs.map((job) => job.status)).toEqual(Array(15).fill('queued'));
        for (const res of first.responses.filter((r) => r.status === 429)) {
          // Refused by the render window (30 of 30 used) or, in the middle of the burst, by the creation window.
          expect([30, 50]).toContain(Number(res.headers['x-ratelimit-limit']));
          expect(res.body).toEqual(LIMITED);
        }

        // Cancelling 5 queued jobs, in parallel on both instances, gives back 5 × 3 and 5 × 2 units.
        const cancels = await burst(5, (i) =>
          request(on(i)).post(`${JOBS}/${jobs[i].id}/cancel`).set('x-api-key', who.key),
        );
        expect(statusCounts(cancels.responses)).toEqual({ 200: 5 });
        expect(await unitsOf(who.organizationId)).toEqual({
          creationHour: '30',
          creationDay: '30',
          renderHour: '20',
          renderDay: '20',
        });

        // What was given back is exactly what can be reserved again: 10 render units, so 5 requests.
        const second = await burst(20, (i) => create(i, who, 'second'));
        expect(statusCounts(second.responses)).toEqual({ 202: 5, 429: 15 });
        expect(await unitsOf(who.organizationId)).toEqual({
          creationHour: '45',
          creationDay: '45',
          renderHour: '30',
          renderDay: '30',
        });
        expect(await jobsOf(who)).toHaveLength(20);
      });
    });
  });

  describe('WindowCounter against Redis', () => {
    const counter = () => new WindowCounter(redis);
    // Windows charged together share a hash tag, as the service's do (one slot on a Redis Cluster).
    const tag = randomUUID();
    const window = (limit = 5, ttlMs = 60_000) => ({ key: `limit:test-window:{${tag}}:${randomUUID()}`, limit, ttlMs });

    it('a window ends on the whole second its first charge set, which is the key’s expiry; later charges report the same end', async () => {
      const w = window();
      const now = Date.now();
      const first = await counter().charge([w], 1, now);
      expect(first.windows).toEqual([{ count: 1, endsAt: endOfWindowOpenedAt(now, 60_000) }]);
      expect(await redis.pexpiretime(w.key)).toBe(endOfWindowOpenedAt(now, 60_000));
      const later = await counter().charge([w], 2, now + 1_500);
      expect(later.windows).toEqual([{ count: 3, endsAt: endOfWindowOpenedAt(now, 60_000) }]);
    });

    it('a charge past any window’s limit charges none of them and reports the refusing window’s end', async () => {
      const [roomy, tight] = [window(10), window(2)];
      const now = Date.now();
      await counter().charge([tight], 2, now);
      const refused = await counter().charge([roomy, tight], 1, now + 10);
      expect(refused).toEqual({
        allowed: false,
        refusedBy: 1,
        windows: [
          { count: 0, endsAt: endOfWindowOpenedAt(now + 10, 60_000) },
          { count: 2, endsAt: endOfWindowOpenedAt(now, 60_000) },
        ],
      });
      expect(await redis.exists(roomy.key)).toBe(0);
      expect(await redis.get(tight.key)).toBe('2');
    });

    it('a refund goes only to the window it was charged to: not to one opened since, nor to one that has ended', async () => {
      const w = window(10);
      const now = Date.now();
      await counter().charge([w], 4, now);
      const startsAt = endOfWindowOpenedAt(now, 60_000) - 60_000;
      // Charged before this window opened: that window has ended; this one owes nothing.
      await counter().refund([w], 1, startsAt - 1);
      expect(await redis.get(w.key)).toBe('4');
      await counter().refund([w], 3, now);
      expect(await redis.get(w.key)).toBe('1');
      // Never below zero.
      await counter().refund([w], 5, now);
      expect(await redis.get(w.key)).toBe('0');
      // A window gone (expired) is not recreated by a refund.
      await redis.del(w.key);
      await counter().refund([w], 1, now);
      expect(await redis.exists(w.key)).toBe(0);
    });
  });
});
