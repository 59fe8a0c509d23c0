import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import request from 'supertest';
import type { Response } from 'supertest';
import { generateApiKey, hashApiKey } from '../src/common/auth/api-key';
import { PrincipalCache } from '../src/common/auth/principal-cache';
import {
  changesConnection,
  PrincipalCacheFeed,
  subscribeToChanges,
  type ChangesConnection,
} from '../src/common/auth/principal-cache-feed';
import { addressBucket } from '../src/common/http/client-address';
import { ApiKeysRepository } from '../src/modules/api-keys/api-keys.repository';
import { ApiKeysService } from '../src/modules/api-keys/api-keys.service';
import { createTestApp, eventually, type TestApp } from './support/test-app';
import { assertBuilt, freePort, startService } from './support/worker-process';
import { redisFor } from './support/redis-cluster';
import type { RedisClient } from '../src/common/redis/redis.module';

/**
 * API keys across instances (docs/api.md §5.1, §5.5, §8.7): a revoked key stops working on every
 * instance within a second, unknown keys are remembered so repeating them costs no database lookup,
 * and failed authentications are limited per client address. Two API instances share one database
 * and one Redis, as behind a load balancer; each keeps its own key cache.
 */

// The key generator, so that a test can present a key before it is created.
jest.mock('../src/common/auth/api-key', () => {
  const actual = jest.requireActual<typeof import('../src/common/auth/api-key')>('../src/common/auth/api-key');
  return { ...actual, generateApiKey: jest.fn(actual.generateApiKey) };
});

const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const UNAUTHENTICATED = { detail: 'API key required or invalid.' };
const LIMITED = { detail: 'Rate limit or organization quota exceeded.' };
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The promise: revocations and new keys reach every instance within this. */
const PROPAGATION_MS = 1000;
const FAILURE_LIMIT = 20;

const unknownKey = () => 'sk_live_' + Array.from({ length: 32 }, () => BASE62[randomInt(BASE62.length)]).join('');
/** A client address of its own per test (IPv6, counted per /64), so that no two tests or runs share a counter. */
const clientAddress = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;

/** Polls until `check` holds and returns how long that took; fails past `deadlineMs`. */
async function timeUntil(check: () => Promise<boolean>, deadlineMs: number): Promise<number> {
  const started = Date.now();
  await eventually(check, deadlineMs, 10);
  return Date.now() - started;
}

describe('API keys across instances', () => {
  let a: TestApp;
  let b: TestApp;
  let redis: RedisClient;

  beforeAll(async () => {
    // The default key cache (10 s): only the announcements can make a revocation reach an instance in time.
    const env = {
      RATE_LIMIT_PER_MINUTE: '100000',
      AUTH_FAILURES_PER_CLIENT_PER_MINUTE: String(FAILURE_LIMIT),
      TRUST_PROXY: 'loopback',
    };
    a = await createTestApp(env);
    b = await createTestApp(env);
    redis = redisFor(a.config);
  });
  afterAll(async () => {
    await redis.quit();
    await a.close();
    await b.close();
  });

  const list = (t: TestApp, key: string, from = clientAddress()) =>
    request(t.server).get(CAMPAIGNS).set('x-api-key', key).set('X-Forwarded-For', from);
  /** Counts this instance's database lookups of keys (the repository's one query). */
  const lookupsOn = (t: TestApp) => jest.spyOn(t.app.get(ApiKeysRepository), 'touchActiveByHash');

  afterEach(() => jest.restoreAllMocks());
  /** The failure count Redis holds for a client address, as the limit buckets it. */
  const failuresOf = (address: string) => redis.get(`limit:auth-failures:${addressBucket(address)}`);

  describe('revocation', () => {
    it('a key revoked through the service on one instance is refused on the other within a second', async () => {
      const tenant = await a.createTenant(['custom_links:read']);
      const service = a.app.get(ApiKeysService);
      const created = await service.create(tenant.organizationId, ['custom_links:read'], 'revoked across instances');
      // Used on both, so both hold it in their cache.
      await list(a, created.key).expect(200);
      await list(b, created.key).expect(200);
      const lookups = [lookupsOn(a), lookupsOn(b)];
      await list(b, created.key).expect(200);
      expect(lookups.map((spy) => spy.mock.calls.length)).toEqual([0, 0]);

      await service.revoke(created.id);
      const elapsed = await timeUntil(async () => (await list(b, created.key)).status === 401, PROPAGATION_MS);
      expect(elapsed).toBeLessThan(PROPAGATION_MS);
      expect((await list(a, created.key).expect(401)).body).toEqual(UNAUTHENTICATED);
      expect((await list(b, created.key).expect(401)).body).toEqual(UNAUTHENTICATED);
    });

    it('an instance that lost its Redis subscription meanwhile still refuses the key within a second, then caches again', async () => {
      const tenant = await a.createTenant(['custom_links:read']);
      const service = a.app.get(ApiKeysService);
      const created = await service.create(tenant.organizationId, ['custom_links:read'], 'revoked while B was deaf');
      const survivor = await b.createKey(tenant.organizationId, ['custom_links:read']);
      await list(b, created.key).expect(200);

      // B's subscriber connection drops (as on a network blip): the announcement below is lost to it.
      // On a cluster the feed replaces a dropped connection; on one Redis it reconnects the same one.
      const subscriberOf = () =>
        (b.app.get(PrincipalCacheFeed) as unknown as { subscriber?: ChangesConnection }).subscriber?.connection;
      subscriberOf()!.stream.destroy();
      await service.revoke(created.id);
      const elapsed = await timeUntil(async () => (await list(b, created.key)).status === 401, PROPAGATION_MS);
      expect(elapsed).toBeLessThan(PROPAGATION_MS);

      // Once the subscription is back, B caches keys again: one lookup for many requests.
      await eventually(async () => subscriberOf()?.status === 'ready', 5000);
      await eventually(async () => {
        await list(b, survivor).expect(200);
        const lookups = lookupsOn(b);
        try {
          for (let i = 0; i < 3; i++) await list(b, survivor).expect(200);
          return lookups.mock.calls.length === 0;
        } finally {
          lookups.mockRestore();
        }
      }, 5000);
      await list(b, created.key).expect(401);
    });
  });

  describe('unknown keys', () => {
    it('repeating an unknown key costs one database lookup per instance', async () => {
      const key = unknownKey();
      const from = clientAddress();
      const lookups = [lookupsOn(a), lookupsOn(b)];
      for (let i = 0; i < 8; i++) {
        for (const t of [a, b]) expect((await list(t, key, from).expect(401)).body).toEqual(UNAUTHENTICATED);
      }
      expect(lookups.map((spy) => spy.mock.calls)).toEqual([[[hashApiKey(key)]], [[hashApiKey(key)]]]);
    });

    it('a key presented before it existed works on every instance as soon as it is created', async () => {
      const tenant = await a.createTenant([]);
      const key = generateApiKey();
      await list(a, key).expect(401);
      await list(b, key).expect(401);
      const lookups = [lookupsOn(a), lookupsOn(b)];
      await list(a, key).expect(401);
      await list(b, key).expect(401);
      // Remembered as unknown on both.
      expect(lookups.map((spy) => spy.mock.calls.length)).toEqual([0, 0]);

      // The next key generated is that one.
      jest.mocked(generateApiKey).mockReturnValueOnce(key);
      const created = await a.app
        .get(ApiKeysService)
        .create(tenant.organizationId, ['custom_links:read'], 'presented early');
      expect(created.key).toBe(key);
      for (const t of [a, b]) {
        const elapsed = await timeUntil(async () => (await list(t, key)).status === 200, PROPAGATION_MS);
        expect(elapsed).toBeLessThan(PROPAGATION_MS);
      }
    });
  });

  describe('failed authentications per client address', () => {
    const expectLimited = (res: Response) => {
      expect(res.status).toBe(429);
      expect(res.body).toEqual(LIMITED);
      expect(res.headers['x-ratelimit-limit']).toBe(String(FAILURE_LIMIT));
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(Math.abs(reset - Math.floor(Date.now() / 1000) - retryAfter)).toBeLessThanOrEqual(1);
    };

    it('answers 401 up to the limit, counted across instances, then 429 without looking keys up', async () => {
      const from = clientAddress();
      const lookups = [lookupsOn(a), lookupsOn(b)];
      for (let i = 0; i < FAILURE_LIMIT; i++)
        await list(i % 2 ? a : b, unknownKey(), from).expect(401, UNAUTHENTICATED);
      expect(lookups[0].mock.calls.length + lookups[1].mock.calls.length).toBe(FAILURE_LIMIT);

      // A flood of random keys: refused, and no more database work on either instance.
      for (let i = 0; i < 10; i++) expectLimited(await list(i % 2 ? a : b, unknownKey(), from));
      // Missing and malformed keys count as failures and are refused too.
      expectLimited(await request(a.server).get(CAMPAIGNS).set('X-Forwarded-For', from));
      expectLimited(
        await request(b.server).get(CAMPAIGNS).set('X-Forwarded-For', from).set('Authorization', 'Bearer nope'),
      );
      expect(lookups[0].mock.calls.length + lookups[1].mock.calls.length).toBe(FAILURE_LIMIT);

      // Another client is not affected.
      await list(a, unknownKey(), clientAddress()).expect(401, UNAUTHENTICATED);
    });

    it('keys an instance has verified keep working from a refused address; others are refused unverified', async () => {
      const from = clientAddress();
      const tenant = await a.createTenant(['custom_links:read']);
      const unverified = await a.createKey(tenant.organizationId, ['custom_links:read']);
      await list(a, tenant.key, from).expect(200);
      for (let i = 0; i < FAILURE_LIMIT; i++) await list(a, unknownKey(), from).expect(401);
      expectLimited(await list(a, unknownKey(), from));

      await list(a, tenant.key, from).expect(200);
      const lookups = lookupsOn(a);
      expectLimited(await list(a, unverified, from));
      expect(lookups).not.toHaveBeenCalled();
      await list(a, unverified, clientAddress()).expect(200);
    });

    it('takes the client address from X-Forwarded-For only as far as TRUST_PROXY trusts the proxies', async () => {
      const direct = await createTestApp();
      const hop = await createTestApp({ AUTH_FAILURES_PER_CLIENT_PER_MINUTE: '3', TRUST_PROXY: '1' });
      try {
        // TRUST_PROXY=false (the default): X-Forwarded-For is whatever the client says, and ignored;
        // the failure counts against the connection's peer (127.0.0.1, shared with other specs).
        const claimed = clientAddress();
        await list(direct, unknownKey(), claimed).expect(401);
        expect(await failuresOf(claimed)).toBeNull();

        // One trusted hop: the address the proxy appended counts, not what the client claimed before it.
        const client = clientAddress();
        const spoofed = clientAddress();
        for (let i = 0; i < 3; i++) await list(hop, unknownKey(), `${spoofed}, ${client}`).expect(401);
        expect(await failuresOf(client)).toBe('3');
        expect(await failuresOf(spoofed)).toBeNull();
        const refused = await list(hop, unknownKey(), `${spoofed}, ${client}`);
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual(LIMITED);
        expect(refused.headers['x-ratelimit-limit']).toBe('3');
        expect(refused.headers['retry-after']).toMatch(/^\d+$/);
        await list(hop, unknownKey(), `${client}, ${spoofed}`).expect(401);
      } finally {
        await direct.close();
        await hop.close();
      }
    });
  });

  describe('what the caches and announcements hold', () => {
    it('key hashes only, never a key', async () => {
      const changes = await changesConnection(redis);
      const subscriber = changes.connection;
      const messages: string[] = [];
      try {
        await subscribeToChanges(changes);
        const collect = (_channel: string, message: string) => messages.push(message);
        subscriber.on('message', collect).on('smessage', collect);
        const tenant = await a.createTenant(['custom_links:read']);
        const created = await a.app
          .get(ApiKeysService)
          .create(tenant.organizationId, ['custom_links:read'], 'inspected');
        const unknown = unknownKey();
        await list(a, tenant.key).expect(200);
        await list(a, created.key).expect(200);
        await list(a, unknown).expect(401);
        await a.app.get(ApiKeysService).revoke(created.id);
        // The channel is shared with every spec running meanwhile: wait for this test's last announcement.
        await eventually(async () => messages.some((message) => message.includes(created.id)), 2000);

        const hashes = a.app.get(PrincipalCache).hashes();
        expect(hashes).toEqual(expect.arrayContaining([hashApiKey(tenant.key), hashApiKey(unknown)]));
        for (const hash of hashes) expect(hash).toMatch(/^[0-9a-f]{64}$/);
        const announced = messages.join('\n');
        expect(announced).toContain(hashApiKey(created.key));
        expect(announced).toContain(created.id);
        for (const key of [tenant.key, created.key, unknown]) {
          expect(hashes).not.toContain(key);
          expect(announced).not.toContain(key.slice(8));
        }
      } finally {
        await subscriber.quit();
      }
    });
  });

  describe('logs', () => {
    it('no key reaches a log line of the built server, whatever happens to it (LOG_LEVEL=trace)', async () => {
      assertBuilt();
      const port = await freePort();
      const tenant = await a.createTenant(['custom_links:read']);
      const service = a.app.get(ApiKeysService);
      const revoked = await service.create(tenant.organizationId, ['custom_links:read'], 'revoked in the log test');
      const unknown = unknownKey();
      const server = startService(
        port,
        {
          APP_ROLE: 'api',
          DEMO_SEED: 'false',
          LOG_LEVEL: 'trace',
          TRUST_PROXY: 'loopback',
          AUTH_FAILURES_PER_CLIENT_PER_MINUTE: '3',
          SHUTDOWN_DRAIN_DELAY_MS: '0',
        },
        { output: 'pipe' },
      ) as ChildProcessWithoutNullStreams;
      let output = '';
      server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
      try {
        const base = `http://127.0.0.1:${port}`;
        await eventually(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok === true, 30_000, 100);
        // Each request from an address of its own, unless it says otherwise (127.0.0.1's budget is every spec's).
        const call = (headers: Record<string, string>, path = CAMPAIGNS) =>
          fetch(`${base}${path}`, { headers: { 'x-forwarded-for': clientAddress(), ...headers } });
        expect((await call({ authorization: `Bearer ${tenant.key}` })).status).toBe(200);
        expect((await call({ 'x-api-key': tenant.key })).status).toBe(200);
        expect((await call({ 'x-api-key': revoked.key })).status).toBe(200);
        expect((await call({ 'x-api-key': `${tenant.key}x` })).status).toBe(401);
        expect((await call({}, `${CAMPAIGNS}?api_key=${tenant.key}&key=${unknown}`)).status).toBe(401);
        await service.revoke(revoked.id);
        await eventually(async () => (await call({ 'x-api-key': revoked.key })).status === 401, PROPAGATION_MS, 10);
        const from = clientAddress();
        const statuses: number[] = [];
        for (const key of [unknown, unknown, unknownKey(), unknown])
          statuses.push((await call({ 'x-api-key': key, 'x-forwarded-for': from })).status);
        expect(statuses).toEqual([401, 401, 401, 429]);
      } finally {
        server.kill('SIGTERM');
        await exited;
      }
      // The capture works: the requests above were logged.
      expect(output.match(/"msg":"request completed"/g)?.length ?? 0).toBeGreaterThanOrEqual(8);
      for (const key of [tenant.key, revoked.key, unknown]) {
        expect(output).not.toContain(key.slice('sk_live_'.length));
        expect(output).not.toContain(hashApiKey(key));
      }
    });
  });
});
