import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { hashApiKey } from '../src/common/auth/api-key';
import { API_KEY_CHANGES_CHANNEL } from '../src/common/auth/api-key-changes';
import { PrincipalCacheFeed, type ChangesConnection } from '../src/common/auth/principal-cache-feed';
import { hourAndDayWindows } from '../src/common/limits/limits.service';
import { bullPrefix } from '../src/common/queue/bull-redis';
import type { RedisClient } from '../src/common/redis/redis.module';
import { ApiKeysRepository } from '../src/modules/api-keys/api-keys.repository';
import { ApiKeysService } from '../src/modules/api-keys/api-keys.service';
import { createLinks } from './support/links';
import { RedisCluster, redisFor } from './support/redis-cluster';
import { createTestApp, eventually, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * The service on a Redis Cluster of three masters (issue 35 point 3; docs/scaling.md "Redis
 * Cluster"): keys one script touches share a slot, organizations spread over the masters, a Bull
 * job round-trips, and a master killed mid-run answers 503 with Retry-After, then heals by itself.
 * The cluster is the spec's own, on ports of its own (CI's cluster run uses 7100-7102).
 */

const PORTS = [7110, 7111, 7112];
const UNAVAILABLE = { detail: 'The workflow is disabled or temporarily unavailable.' };
const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const USAGE = '/api/v1/usage';

describe('Redis Cluster', () => {
  let cluster: RedisCluster;
  let t: TestApp;
  let redis: RedisClient;

  beforeAll(async () => {
    cluster = await RedisCluster.start(PORTS);
    t = await createTestApp({
      REDIS_URL: cluster.url(),
      APP_ROLE: 'all',
      QUEUE_PREFIX: `bull-cluster-${randomUUID().slice(0, 8)}`,
      LINK_CREATION_UNITS_PER_HOUR: '4',
    });
    redis = redisFor(t.config);
  });

  afterAll(async () => {
    redis?.disconnect();
    await t?.close();
    await cluster?.stop();
  });

  it('runs in cluster mode with a hash-tagged queue prefix', () => {
    expect(t.config.redis).toMatchObject({
      mode: 'cluster',
      nodes: PORTS.map((port) => ({ host: '127.0.0.1', port })),
    });
    expect(bullPrefix(t.config.queuePrefix, t.config.redis)).toBe(`{${t.config.queuePrefix}}`);
  });

  it("keeps an organization's hour and day windows in one slot, and spreads organizations over the masters", async () => {
    const masters = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const [hour, day] = hourAndDayWindows('link-creation', randomUUID(), 1, 1);
      const node = await cluster.nodeOf(hour.key);
      expect(await cluster.nodeOf(day.key)).toBe(node);
      masters.add(node);
    }
    expect(masters.size).toBeGreaterThan(1);
  });

  it('charges the multi-window quota script per organization, each on its own slot', async () => {
    const [a, b] = [await t.createTenant(), await t.createTenant()];
    const create = (who: Tenant, count: number) =>
      request(t.server)
        .post('/api/v1/custom-links')
        .set('x-api-key', who.key)
        .set('Idempotency-Key', randomUUID())
        .send({ links: Array.from({ length: count }, (_, i) => ({ firstName: `P${i}` })) });
    await create(a, 3).expect(202);
    await create(b, 4).expect(202);
    await create(a, 2).expect(429);
    await create(a, 1).expect(202);
    await create(b, 1).expect(429);
    for (const [who, used] of [
      [a, 4],
      [b, 4],
    ] as const) {
      const usage = (await request(t.server).get(USAGE).set('x-api-key', who.key).expect(200)).body as {
        linkCreationUnits: { hour: { used: number }; day: { used: number } };
      };
      expect(usage.linkCreationUnits.hour.used).toBe(used);
      expect(usage.linkCreationUnits.day.used).toBe(used);
      const [hour] = hourAndDayWindows('link-creation', who.organizationId, 1, 1);
      expect(await redis.get(hour.key)).toBe(String(used));
    }
  });

  it("round-trips a Bull job: the link job is queued, taken by the worker and done; the queue's keys share a slot", async () => {
    const who = await t.createTenant();
    const [link] = await createLinks(t.server, who.key, [{ firstName: 'Ada' }]);
    expect(link.url).toMatch(/\/l\/[^/]+$/);
    const prefix = bullPrefix(t.config.queuePrefix, t.config.redis);
    const keys = await Promise.all(
      ['id', 'wait', 'active', 'completed'].map((suffix) => cluster.nodeOf(`${prefix}:custom-link-jobs:${suffix}`)),
    );
    expect(new Set(keys).size).toBe(1);
  });

  it('keeps list counts and analytics answers in the cluster: the second read of each is a hit', async () => {
    const who = await t.createTenant();
    const lookups = async (cache: 'count' | 'analytics', result: 'hit' | 'miss') => {
      const text = (await request(t.server).get('/metrics').expect(200)).text;
      const line = new RegExp(`^engagement_cache_lookups_total\\{cache="${cache}",result="${result}"\\} (\\d+)`, 'm');
      return Number(line.exec(text)?.[1] ?? 0);
    };
    const people = () => request(t.server).get('/api/v1/people?limit=1').set('x-api-key', who.key).expect(200);
    const analytics = () =>
      request(t.server)
        .get('/api/v1/analytics')
        .query({ metrics: 'opens', group_by: 'country', from: '2026-03-01T00:00:00Z', to: '2026-04-05T00:00:00Z' })
        .set('x-api-key', who.key)
        .expect(200);
    for (const [cache, read] of [
      ['count', people],
      ['analytics', analytics],
    ] as const) {
      const [hits, misses] = [await lookups(cache, 'hit'), await lookups(cache, 'miss')];
      await read();
      await read();
      await eventually(async () => (await lookups(cache, 'hit')) > hits, 2000);
      expect(await lookups(cache, 'miss')).toBeGreaterThan(misses);
    }
  });

  it("the key feed listens on its channel's master, and after that master is killed and back it trusts its cache again", async () => {
    const who = await t.createTenant();
    const list = () => request(t.server).get(CAMPAIGNS).set('x-api-key', who.key);
    const feed = () => (t.app.get(PrincipalCacheFeed) as unknown as { subscriber?: ChangesConnection }).subscriber;
    const channelNode = await cluster.nodeOf(API_KEY_CHANGES_CHANNEL);
    expect(feed()).toMatchObject({ sharded: true, connection: { options: { port: PORTS[channelNode] } } });
    /** Whether three requests in a row were served from the cache (no database lookup of the key). */
    const cached = async () => {
      await list().expect(200);
      const lookups = jest.spyOn(t.app.get(ApiKeysRepository), 'touchActiveByHash');
      try {
        for (let i = 0; i < 3; i++) await list().expect(200);
        return lookups.mock.calls.length === 0;
      } finally {
        lookups.mockRestore();
      }
    };
    await eventually(cached, 5000);

    await cluster.kill(channelNode);
    await readUntil(list, (r) => r.status === 503, 5000);
    await cluster.revive(channelNode);
    await readUntil(list, (r) => r.status === 200, 15_000);
    await eventually(cached, 5000);
    expect(feed()).toMatchObject({ sharded: true, connection: { status: 'ready' } });
    // And announcements arrive again: a key revoked now stops working within the feed's second.
    const other = await t.app.get(ApiKeysService).create(who.organizationId, ['custom_links:read'], 'revoked');
    const withOther = () => request(t.server).get(CAMPAIGNS).set('x-api-key', other.key);
    await withOther().expect(200);
    await t.app.get(ApiKeysService).revoke(other.id);
    await readUntil(withOther, (r) => r.status === 401, 1000);
  });

  it('a master killed mid-run: 503 with Retry-After within 2 s, readyz down, and healed without a restart once it is back', async () => {
    const who = await t.createTenant();
    const list = () => request(t.server).get(CAMPAIGNS).set('x-api-key', who.key);
    await list().expect(200);
    // The node holding the key's request-rate window: every request charges it.
    const [{ id: keyId }] = await t.app
      .get(DataSource)
      .query<{ id: string }[]>('SELECT id FROM api_keys WHERE key_hash = $1', [hashApiKey(who.key)]);
    const victim = await cluster.nodeOf(`rate:default:${keyId}`);

    await cluster.kill(victim);
    const started = Date.now();
    const res = await readUntil(list, (r) => r.status !== 200, 5000);
    const answeredWithin = Date.now() - started;
    expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 503, body: UNAVAILABLE });
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(answeredWithin).toBeLessThan(2000);
    await readUntil(
      () => request(t.server).get('/readyz'),
      (r) => r.status === 503,
      5000,
    );

    await cluster.revive(victim);
    await readUntil(list, (r) => r.status === 200, 15_000);
    await readUntil(
      () => request(t.server).get('/readyz'),
      (r) => r.status === 200,
      15_000,
    );
    // And the queue works again: a new link job runs to its end.
    const [link] = await createLinks(t.server, who.key, [{ firstName: 'Bo' }]);
    expect(link.url).toMatch(/\/l\/[^/]+$/);
  });
});
