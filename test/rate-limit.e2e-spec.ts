import request from 'supertest';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { hashApiKey } from '../src/common/auth/api-key';
import { ApiKeysService } from '../src/modules/api-keys/api-keys.service';
import { createTestApp, type TestApp } from './support/test-app';
import { redisFor } from './support/redis-cluster';
import type { RedisClient } from '../src/common/redis/redis.module';

/**
 * The request-rate limit through HTTP (docs/api.md §8.1, §8.5): per API key, shared by every
 * instance through Redis, counted on authenticated requests only, never on 401 or 429 replies.
 */

const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const LIMIT = 5;
const LIMITED = { detail: 'Rate limit or organization quota exceeded.' };
const UNKNOWN_CAMPAIGN = '0190a000-0000-7000-8000-000000000000';

let seq = 0;
const uniqueName = (label: string) => `${label} ${Date.now().toString(36)}-${++seq}`;

/** The request-rate headers, checked for shape and range; returns Remaining. */
function expectRateHeaders(res: Response, startedAtMs: number): number {
  expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
  const remaining = res.headers['x-ratelimit-remaining'];
  expect(remaining).toMatch(/^\d+$/);
  const reset = res.headers['x-ratelimit-reset'];
  expect(reset).toMatch(/^\d+$/);
  // A Unix second after the window opened, and no later than 60 s from now rounded up.
  expect(Number(reset)).toBeGreaterThan(Math.floor(startedAtMs / 1000));
  expect(Number(reset)).toBeLessThanOrEqual(Math.ceil((Date.now() + 60_000) / 1000));
  return Number(remaining);
}

function expectRefused(res: Response, startedAtMs: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual(LIMITED);
  expect(expectRateHeaders(res, startedAtMs)).toBe(0);
  const retryAfter = res.headers['retry-after'];
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  // Retry-After counts the whole seconds from the server's clock (read before now) to the window's reset.
  expect(Number(res.headers['x-ratelimit-reset']) - Number(retryAfter)).toBeLessThanOrEqual(
    Math.floor(Date.now() / 1000),
  );
  expect(Number(res.headers['x-ratelimit-reset']) - Number(retryAfter)).toBeGreaterThanOrEqual(
    Math.floor(startedAtMs / 1000),
  );
}

describe('request-rate limit', () => {
  let a: TestApp;
  let b: TestApp;
  let redis: RedisClient;

  beforeAll(async () => {
    // Two API instances on one database and one Redis, as behind a load balancer. Without the key
    // cache, a revoked key is refused at once.
    const env = { RATE_LIMIT_PER_MINUTE: String(LIMIT), API_KEY_CACHE_TTL_SECONDS: '0' };
    a = await createTestApp(env);
    b = await createTestApp(env);
    redis = redisFor(a.config);
  });
  afterAll(async () => {
    await redis.quit();
    await a.close();
    await b.close();
  });

  const keyIdOf = async (key: string): Promise<string> => {
    const rows = await a.app
      .get(DataSource)
      .query<{ id: string }[]>(`SELECT id FROM api_keys WHERE key_hash = $1`, [hashApiKey(key)]);
    expect(rows).toHaveLength(1);
    return rows[0].id;
  };
  const counted = async (key: string): Promise<string | null> => redis.get(`rate:default:${await keyIdOf(key)}`);

  it('shares one budget per key across instances: 4..0 remaining, then 429 on either, which consumes nothing', async () => {
    const { key } = await a.createTenant(['custom_links:read', 'custom_links:write']);
    const startedAt = Date.now();
    // GET and POST, on both instances: one budget per key, not per route or per instance.
    const allowed = [
      await request(a.server).get(CAMPAIGNS).set('x-api-key', key),
      await request(a.server)
        .post(CAMPAIGNS)
        .set('x-api-key', key)
        .send({ name: uniqueName('Rate') }),
      await request(a.server).get(CAMPAIGNS).set('Authorization', `Bearer ${key}`),
      await request(b.server).get(CAMPAIGNS).set('x-api-key', key),
      await request(b.server)
        .post(CAMPAIGNS)
        .set('x-api-key', key)
        .send({ name: uniqueName('Rate') }),
    ];
    expect(allowed.map((res) => res.status)).toEqual([200, 201, 200, 200, 201]);
    expect(allowed.map((res) => expectRateHeaders(res, startedAt))).toEqual([4, 3, 2, 1, 0]);

    for (const server of [b.server, a.server, a.server, b.server]) {
      expectRefused(await request(server).get(CAMPAIGNS).set('x-api-key', key), startedAt);
    }
    expectRefused(
      await request(a.server)
        .post(CAMPAIGNS)
        .set('x-api-key', key)
        .send({ name: uniqueName('Refused') }),
      startedAt,
    );

    // Refusals did not count: the window holds exactly the five allowed requests.
    expect(await counted(key)).toBe(String(LIMIT));
    // One window, whose end every answer names: the key's expiry, 60 s after the first request rounded down to the second.
    const endsAt = await redis.pexpiretime(`rate:default:${await keyIdOf(key)}`);
    expect(endsAt % 1000).toBe(0);
    expect(endsAt).toBeGreaterThanOrEqual(Math.floor((startedAt + 60_000) / 1000) * 1000);
    expect(endsAt).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(new Set(allowed.map((res) => res.headers['x-ratelimit-reset']))).toEqual(new Set([String(endsAt / 1000)]));
  });

  it('puts the headers on every authenticated response: 200, 403, 404 and 422 alike, each counted', async () => {
    const tenant = await a.createTenant(['custom_links:read']);
    const writer = await a.createKey(tenant.organizationId, ['custom_links:write']);
    const startedAt = Date.now();

    const ok = await request(a.server).get(CAMPAIGNS).set('x-api-key', tenant.key).expect(200);
    expect(expectRateHeaders(ok, startedAt)).toBe(4);
    const forbidden = await request(b.server)
      .post(CAMPAIGNS)
      .set('x-api-key', tenant.key)
      .send({ name: uniqueName('No scope') })
      .expect(403);
    expect(expectRateHeaders(forbidden, startedAt)).toBe(3);

    const notFound = await request(a.server)
      .patch(`${CAMPAIGNS}/${UNKNOWN_CAMPAIGN}`)
      .set('x-api-key', writer)
      .send({ name: uniqueName('Nope') })
      .expect(404);
    expect(expectRateHeaders(notFound, startedAt)).toBe(4);
    const invalid = await request(b.server)
      .patch(`${CAMPAIGNS}/not-a-uuid`)
      .set('x-api-key', writer)
      .send({ name: '' })
      .expect(422);
    expect(expectRateHeaders(invalid, startedAt)).toBe(3);
    const invalidBody = await request(a.server)
      .post(CAMPAIGNS)
      .set('x-api-key', writer)
      .send({ name: 'x'.repeat(256) })
      .expect(422);
    expect(expectRateHeaders(invalidBody, startedAt)).toBe(2);
  });

  it('keeps one budget per key: another key of the same organization is unaffected', async () => {
    const tenant = await a.createTenant(['custom_links:read']);
    const second = await a.createKey(tenant.organizationId, ['custom_links:read']);
    const startedAt = Date.now();
    for (let i = 0; i < LIMIT; i++)
      await request(i % 2 ? a.server : b.server)
        .get(CAMPAIGNS)
        .set('x-api-key', tenant.key)
        .expect(200);
    expectRefused(await request(a.server).get(CAMPAIGNS).set('x-api-key', tenant.key), startedAt);

    const other = await request(b.server).get(CAMPAIGNS).set('x-api-key', second).expect(200);
    expect(expectRateHeaders(other, startedAt)).toBe(LIMIT - 1);
  });

  it('does not count 401 replies: unknown, malformed, missing or revoked keys', async () => {
    const tenant = await a.createTenant(['custom_links:read']);
    const revoked = await a.createKey(tenant.organizationId, ['custom_links:read']);
    const startedAt = Date.now();
    await request(a.server).get(CAMPAIGNS).set('x-api-key', revoked).expect(200);
    await a.app.get(ApiKeysService).revoke(await keyIdOf(revoked));

    const invalid: [string, string][] = [
      ['x-api-key', `sk_live_${'A'.repeat(32)}`],
      ['x-api-key', 'not-a-key'],
      ['Authorization', `Bearer ${tenant.key}x`],
      ['Authorization', `Basic ${tenant.key}`],
      ['x-api-key', revoked],
      ['Authorization', `Bearer ${revoked}`],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [header, value] of invalid) {
        await request(round ? b.server : a.server)
          .get(CAMPAIGNS)
          .set(header, value)
          .expect(401, { detail: 'API key required or invalid.' });
      }
      await request(a.server).get(CAMPAIGNS).expect(401);
    }
    // The revoked key's window holds only the one request it made while valid.
    expect(await counted(revoked)).toBe('1');

    // The valid key still has its whole budget.
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i++)
      remaining.push(
        expectRateHeaders(await request(b.server).get(CAMPAIGNS).set('x-api-key', tenant.key).expect(200), startedAt),
      );
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
  });

  it('does not count 429 replies: Remaining stays 0 and the count stays at the limit', async () => {
    const { key } = await a.createTenant(['custom_links:read']);
    const startedAt = Date.now();
    for (let i = 0; i < LIMIT; i++) await request(a.server).get(CAMPAIGNS).set('x-api-key', key).expect(200);
    for (let i = 0; i < 8; i++)
      expectRefused(
        await request(i % 2 ? a.server : b.server)
          .get(CAMPAIGNS)
          .set('x-api-key', key),
        startedAt,
      );
    expect(await counted(key)).toBe(String(LIMIT));
  });

  it('leaves public routes alone: no headers and no charge for /healthz with a key', async () => {
    const { key } = await a.createTenant(['custom_links:read']);
    const health = await request(a.server).get('/healthz').set('x-api-key', key).expect(200);
    expect(health.headers['x-ratelimit-limit']).toBeUndefined();
    expect(await counted(key)).toBeNull();
  });
});
