import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Usage, UsageWindow } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';
import { redisFor } from './support/redis-cluster';
import type { RedisClient } from '../src/common/redis/redis.module';

const USAGE = '/api/v1/usage';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ENV = {
  RATE_LIMIT_PER_MINUTE: '1000',
  TRANSCRIPT_DAILY_LIMIT: '1',
  LINK_MUTATIONS_PER_MINUTE: '2',
  LINK_CREATION_UNITS_PER_HOUR: '50',
  LINK_CREATION_UNITS_PER_DAY: '70',
  THUMBNAIL_RENDER_UNITS_PER_HOUR: '30',
  THUMBNAIL_RENDER_UNITS_PER_DAY: '40',
};

describe('usage', () => {
  let t: TestApp;
  let redis: RedisClient;

  beforeAll(async () => {
    t = await createTestApp(ENV);
    redis = redisFor(t.config);
  });
  afterAll(async () => {
    redis.disconnect();
    await t.close();
  });

  const usage = (key: string) => request(t.server).get(USAGE).set('x-api-key', key).expect(200);
  const body = (res: request.Response) => res.body as Usage;
  /** Redis's expiry of a window key, as the ISO instant usage reports. */
  const expiryOf = async (key: string) => new Date(await redis.pexpiretime(key)).toISOString();
  const createLinks = (who: Tenant, links: Record<string, unknown>[]) =>
    request(t.server)
      .post('/api/v1/custom-links')
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ links });
  const createCampaign = (who: Tenant) =>
    request(t.server)
      .post('/api/v1/custom-link-campaigns')
      .set('x-api-key', who.key)
      .send({ name: `usage ${randomUUID()}` });

  it('answers 401 without a key and 200 to a key without any scope', async () => {
    expect((await request(t.server).get(USAGE).expect(401)).body).toEqual({ detail: 'API key required or invalid.' });
    const who = await t.createTenant([]);
    expect(body(await usage(who.key)).requestRate.limit).toBe(1000);
  });

  it('requestRate is the X-RateLimit-* of the same response, and counts the call itself', async () => {
    const who = await t.createTenant([]);
    const first = await usage(who.key);
    const second = await usage(who.key);
    for (const res of [first, second]) {
      const { requestRate } = body(res);
      expect(String(requestRate.limit)).toBe(res.headers['x-ratelimit-limit']);
      expect(String(requestRate.remaining)).toBe(res.headers['x-ratelimit-remaining']);
      expect(requestRate.resetAt).toBe(new Date(Number(res.headers['x-ratelimit-reset']) * 1000).toISOString());
      expect(requestRate.used + requestRate.remaining).toBe(requestRate.limit);
    }
    expect(body(first).requestRate.used).toBe(1);
    expect(body(second).requestRate.used).toBe(2);
    expect(body(second).requestRate.resetAt).toBe(body(first).requestRate.resetAt);
  });

  it('a fresh organization: every window unused, resetAt the end a window opened now would get (the UTC day for transcripts)', async () => {
    const who = await t.createTenant([]);
    const before = Date.now();
    const u = body(await usage(who.key));
    const after = Date.now();
    const opensNow = (ttlMs: number, w: UsageWindow) => {
      expect(w.resetAt).toMatch(ISO);
      const end = Date.parse(w.resetAt);
      expect(end % 1000).toBe(0);
      expect(end).toBeGreaterThanOrEqual(Math.floor((before + ttlMs) / 1000) * 1000);
      expect(end).toBeLessThanOrEqual(Math.floor((after + ttlMs) / 1000) * 1000);
    };
    expect(u.linkMutations).toMatchObject({ limit: 2, used: 0, remaining: 2 });
    opensNow(60_000, u.linkMutations);
    expect(u.linkCreationUnits.hour).toMatchObject({ limit: 50, used: 0, remaining: 50 });
    opensNow(3_600_000, u.linkCreationUnits.hour);
    expect(u.linkCreationUnits.day).toMatchObject({ limit: 70, used: 0, remaining: 70 });
    opensNow(86_400_000, u.linkCreationUnits.day);
    expect(u.thumbnailRenderUnits.hour).toMatchObject({ limit: 30, used: 0, remaining: 30 });
    expect(u.thumbnailRenderUnits.day).toMatchObject({ limit: 40, used: 0, remaining: 40 });
    const midnight = new Date(
      Date.UTC(new Date(after).getUTCFullYear(), new Date(after).getUTCMonth(), new Date(after).getUTCDate() + 1),
    ).toISOString();
    expect(u.transcriptReads).toEqual({ limit: 1, used: 0, remaining: 1, resetAt: midnight });
  });

  it('link mutations: the figures and end the limit charges, and the refusal when remaining is 0', async () => {
    const who = await t.createTenant(['custom_links:write']);
    await createCampaign(who).expect(201);
    let u = body(await usage(who.key));
    expect(u.linkMutations).toMatchObject({ limit: 2, used: 1, remaining: 1 });
    expect(u.linkMutations.resetAt).toBe(await expiryOf(`limit:link-mutations:${who.organizationId}`));
    await createCampaign(who).expect(201);
    u = body(await usage(who.key));
    expect(u.linkMutations).toMatchObject({ used: 2, remaining: 0 });
    const refused = await createCampaign(who).expect(429);
    expect(new Date(Number(refused.headers['x-ratelimit-reset']) * 1000).toISOString()).toBe(u.linkMutations.resetAt);
    // A refused charge charges nothing.
    expect(body(await usage(who.key)).linkMutations.used).toBe(2);
  });

  it('link creation and render units: what a creation request reserved, in both windows', async () => {
    const who = await t.createTenant(['custom_links:write']);
    // Two links draw a card, one brings its own image: 3 creation units, 2 render units.
    await createLinks(who, [
      { firstName: 'Ada' },
      { firstName: 'Grace' },
      { firstName: 'Alan', shareThumbnailUrl: 'https://cdn.example.com/card.png' },
    ]).expect(202);
    const u = body(await usage(who.key));
    expect(u.linkCreationUnits.hour).toMatchObject({ used: 3, remaining: 47 });
    expect(u.linkCreationUnits.day).toMatchObject({ used: 3, remaining: 67 });
    expect(u.thumbnailRenderUnits.hour).toMatchObject({ used: 2, remaining: 28 });
    expect(u.thumbnailRenderUnits.day).toMatchObject({ used: 2, remaining: 38 });
    expect(u.linkCreationUnits.hour.resetAt).toBe(await expiryOf(`limit:link-creation:hour:{${who.organizationId}}`));
    expect(u.linkCreationUnits.day.resetAt).toBe(await expiryOf(`limit:link-creation:day:{${who.organizationId}}`));
    expect(u.thumbnailRenderUnits.day.resetAt).toBe(
      await expiryOf(`limit:thumbnail-render:day:{${who.organizationId}}`),
    );
  });

  it('transcript reads: the day count the quota charges, 0 remaining exactly when the next read is refused', async () => {
    const who = await t.createTenant(['sessions:write', 'transcripts:read']);
    const id = newSessionId();
    await ingest(
      t.server,
      who.key,
      id,
      sessionBody({ transcript: { entries: [{ speaker: 'agent', text: 'Hello.', sequenceNumber: 1 }] } }),
    ).expect(200);
    const read = () => request(t.server).get(`/api/v1/sessions/${id}/transcript`).set('x-api-key', who.key);
    await read().expect(200);
    const u = body(await usage(who.key));
    expect(u.transcriptReads).toMatchObject({ limit: 1, used: 1, remaining: 0 });
    const refused = await read().expect(429);
    expect(new Date(Number(refused.headers['x-ratelimit-reset']) * 1000).toISOString()).toBe(u.transcriptReads.resetAt);
  });

  it("is the calling key's organization's: another organization's use does not show", async () => {
    const busy = await t.createTenant(['custom_links:write']);
    const quiet = await t.createTenant([]);
    await createCampaign(busy).expect(201);
    await createLinks(busy, [{ firstName: 'Ada' }]).expect(202);
    const u = body(await usage(quiet.key));
    expect([
      u.linkMutations.used,
      u.linkCreationUnits.hour.used,
      u.thumbnailRenderUnits.day.used,
      u.transcriptReads.used,
    ]).toEqual([0, 0, 0, 0]);
    expect(body(await usage(busy.key)).linkMutations.used).toBe(2);
  });
});
