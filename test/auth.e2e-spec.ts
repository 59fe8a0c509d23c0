import { randomInt } from 'node:crypto';
import request from 'supertest';
import { hashApiKey } from '../src/common/auth/api-key';
import type { Scope } from '../src/common/auth/scopes';
import { ApiKeysService } from '../src/modules/api-keys/api-keys.service';
import type { Campaign, CampaignPage } from './support/api-types';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';

/** Authentication, scopes, the key cache and tenancy through HTTP: docs/api.md §5 (keys, scopes), §7 (errors, order of checks). */

const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const UNAUTHENTICATED = { detail: 'API key required or invalid.' };
const FORBIDDEN = { detail: 'API key does not include the required scope.' };
const CAMPAIGN_NOT_FOUND = { detail: "Custom Link campaign not found for the key's organization." };
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A key of the right shape that no organization holds. */
const unknownKey = () => 'sk_live_' + Array.from({ length: 32 }, () => BASE62[randomInt(BASE62.length)]).join('');

let seq = 0;
const uniqueName = (label: string) => `${label} ${Date.now().toString(36)}-${++seq}`;

describe('authentication and authorization', () => {
  let t: TestApp;
  let keys: ApiKeysService;

  beforeAll(async () => {
    // Limits are other specs' subject: keep them out of the way of the many requests made here.
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' });
    keys = t.app.get(ApiKeysService);
  });
  afterAll(() => t.close());

  const list = () => request(t.server).get(CAMPAIGNS);
  const tenant = (scopes: Scope[] = ['custom_links:read', 'custom_links:write']) => t.createTenant(scopes);
  const createCampaign = async (who: Tenant, name = uniqueName('Campaign')): Promise<Campaign> =>
    (await request(t.server).post(CAMPAIGNS).set('x-api-key', who.key).send({ name }).expect(201)).body as Campaign;
  const listCampaigns = async (who: Tenant): Promise<Campaign[]> =>
    ((await list().set('x-api-key', who.key).expect(200)).body as CampaignPage).campaigns;

  describe('401 API key required or invalid', () => {
    let valid: string;

    beforeAll(async () => {
      valid = (await tenant()).key;
    });

    it('without any key', async () => {
      const res = await list()
        .expect(401)
        .expect('Content-Type', /application\/json/);
      expect(res.body).toEqual(UNAUTHENTICATED);
    });

    it.each([
      ['Authorization', 'Bearer sk_live_short'],
      ['Authorization', 'Bearer '],
      ['Authorization', 'Bearer'],
      ['Authorization', `Bearer sk_live_${'a'.repeat(31)}`],
      ['Authorization', `Bearer sk_live_${'a'.repeat(33)}`],
      ['Authorization', `Bearer sk_test_${'a'.repeat(32)}`],
      ['Authorization', `Bearer sk_live_${'a'.repeat(31)}!`],
      ['x-api-key', 'not-a-key'],
      ['x-api-key', ''],
      ['x-api-key', `sk_live_${'a'.repeat(31)}-`],
    ])('with a malformed key (%s: %j)', async (header, value) => {
      const res = await list().set(header, value).expect(401);
      expect(res.body).toEqual(UNAUTHENTICATED);
    });

    it('with a real key followed by extra text', async () => {
      expect((await list().set('Authorization', `Bearer ${valid} extra`).expect(401)).body).toEqual(UNAUTHENTICATED);
      expect((await list().set('x-api-key', `${valid}x`).expect(401)).body).toEqual(UNAUTHENTICATED);
    });

    it('with a well-formed key nobody holds, by either header', async () => {
      const key = unknownKey();
      expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
      expect((await list().set('Authorization', `Bearer ${key}`).expect(401)).body).toEqual(UNAUTHENTICATED);
      expect((await list().set('x-api-key', key).expect(401)).body).toEqual(UNAUTHENTICATED);
    });

    it('with another Authorization scheme (Basic)', async () => {
      const basic = Buffer.from(`user:${valid}`).toString('base64');
      expect((await list().set('Authorization', `Basic ${basic}`).expect(401)).body).toEqual(UNAUTHENTICATED);
      // Not even the key itself under another scheme.
      expect((await list().set('Authorization', `Token ${valid}`).expect(401)).body).toEqual(UNAUTHENTICATED);
    });

    it('on every verb of a protected route, before anything else looks at the request', async () => {
      const id = '0190b3b0-7a1c-7cc0-8000-000000000001';
      for (const res of [
        await request(t.server).post(CAMPAIGNS).send({ name: 'x' }),
        await request(t.server).patch(`${CAMPAIGNS}/${id}`).send({ name: 'x' }),
        await request(t.server).delete(`${CAMPAIGNS}/${id}`),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual(UNAUTHENTICATED);
      }
    });
  });

  describe('presenting a key', () => {
    let who: Tenant;
    let mine: Campaign;

    beforeAll(async () => {
      who = await tenant();
      mine = await createCampaign(who);
    });

    it.each([
      ['Authorization: Bearer <key>', 'Authorization', (key: string) => `Bearer ${key}`],
      [
        'Authorization: bearer <key> (the scheme is case-insensitive)',
        'Authorization',
        (key: string) => `bearer ${key}`,
      ],
      ['Authorization: BEARER <key>', 'Authorization', (key: string) => `BEARER ${key}`],
      ['x-api-key: <key>', 'x-api-key', (key: string) => key],
    ])('authenticates with %s', async (_label, header, value) => {
      const res = await list().set(header, value(who.key)).expect(200);
      expect(res.body).toEqual({
        campaigns: [expect.objectContaining({ id: mine.id, name: mine.name })],
        total: 1,
        limit: 50,
        offset: 0,
        nextCursor: null,
      });
    });
  });

  describe('revocation', () => {
    let short: TestApp;

    beforeAll(async () => {
      short = await createTestApp({ API_KEY_CACHE_TTL_SECONDS: '1' });
    });
    afterAll(() => short.close());

    it('a revoked key is refused within the cache TTL (well within 30 s)', async () => {
      const service = short.app.get(ApiKeysService);
      const { organizationId } = await short.createTenant([]);
      const created = await service.create(organizationId, ['custom_links:read'], 'to be revoked');
      const call = () => request(short.server).get(CAMPAIGNS).set('x-api-key', created.key);
      // Used once, so the principal sits in the cache when the key is revoked.
      expect((await call().expect(200)).body).toEqual({
        campaigns: [],
        total: 0,
        limit: 50,
        offset: 0,
        nextCursor: null,
      });

      const revoked = await service.revoke(created.id);
      expect(revoked?.revokedAt).toEqual(expect.any(String));
      const started = Date.now();
      await eventually(async () => (await call()).status === 401, 30_000);
      expect(Date.now() - started).toBeLessThan(30_000);

      // And it stays refused, with the documented text.
      const res = await call().expect(401);
      expect(res.body).toEqual(UNAUTHENTICATED);
    });
  });

  describe('403 missing scope', () => {
    it('refuses a key whose scopes do not cover the route', async () => {
      const sessionsOnly = await tenant(['sessions:read']);
      const res = await list()
        .set('x-api-key', sessionsOnly.key)
        .expect(403)
        .expect('Content-Type', /application\/json/);
      expect(res.body).toEqual(FORBIDDEN);
    });

    it('refuses every route to a key with no scopes at all', async () => {
      const none = await tenant([]);
      const id = '0190b3b0-7a1c-7cc0-8000-000000000001';
      for (const res of [
        await list().set('x-api-key', none.key),
        await request(t.server)
          .post(CAMPAIGNS)
          .set('x-api-key', none.key)
          .send({ name: uniqueName('None') }),
        await request(t.server).patch(`${CAMPAIGNS}/${id}`).set('x-api-key', none.key).send({ name: 'x' }),
        await request(t.server).delete(`${CAMPAIGNS}/${id}`).set('x-api-key', none.key),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(FORBIDDEN);
      }
    });

    it('custom_links:read does not allow writes, and nothing was written', async () => {
      const reader = await tenant(['custom_links:read']);
      const writer: Tenant = {
        organizationId: reader.organizationId,
        key: await t.createKey(reader.organizationId, ['custom_links:write']),
      };
      const existing = await createCampaign(writer);
      const name = uniqueName('Refused');

      expect(
        (await request(t.server).post(CAMPAIGNS).set('x-api-key', reader.key).send({ name }).expect(403)).body,
      ).toEqual(FORBIDDEN);
      expect(
        (
          await request(t.server)
            .patch(`${CAMPAIGNS}/${existing.id}`)
            .set('x-api-key', reader.key)
            .send({ name })
            .expect(403)
        ).body,
      ).toEqual(FORBIDDEN);
      expect(
        (await request(t.server).delete(`${CAMPAIGNS}/${existing.id}`).set('x-api-key', reader.key).expect(403)).body,
      ).toEqual(FORBIDDEN);

      expect((await listCampaigns(reader)).map((c) => [c.id, c.name])).toEqual([[existing.id, existing.name]]);
    });

    it('custom_links:write satisfies the read route (docs/api.md §5.4), custom_links:read too', async () => {
      const writer = await tenant(['custom_links:write']);
      const created = await createCampaign(writer);
      expect((await listCampaigns(writer)).map((c) => c.id)).toEqual([created.id]);

      const reader: Tenant = {
        organizationId: writer.organizationId,
        key: await t.createKey(writer.organizationId, ['custom_links:read']),
      };
      expect((await listCampaigns(reader)).map((c) => c.id)).toEqual([created.id]);
    });

    it('a key holding several scopes is granted when one of them fits', async () => {
      const mixed = await tenant(['sessions:read', 'playbook:write', 'custom_links:read']);
      expect(await listCampaigns(mixed)).toEqual([]);
    });
  });

  describe('key cache', () => {
    it('resolves a key once for many requests, and each new key once', async () => {
      const { organizationId } = await tenant([]);
      const first = await keys.create(organizationId, ['custom_links:read'], 'cache 1');
      const second = await keys.create(organizationId, ['custom_links:read'], 'cache 2');
      const lookup = jest.spyOn(keys, 'findActiveByHash');
      try {
        for (let i = 0; i < 6; i++) await list().set('x-api-key', first.key).expect(200);
        expect(lookup).toHaveBeenCalledTimes(1);
        expect(lookup).toHaveBeenCalledWith(hashApiKey(first.key));

        // Concurrent first uses of a key share one lookup; both headers hit the same entry.
        await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (i % 2 === 0
              ? list().set('x-api-key', second.key)
              : list().set('Authorization', `Bearer ${second.key}`)
            ).expect(200),
          ),
        );
        expect(lookup).toHaveBeenCalledTimes(2);
        expect(lookup).toHaveBeenLastCalledWith(hashApiKey(second.key));
      } finally {
        lookup.mockRestore();
      }
    });

    it('does not look up a malformed key at all', async () => {
      const lookup = jest.spyOn(keys, 'findActiveByHash');
      try {
        await list().set('x-api-key', 'sk_live_short').expect(401);
        await list().set('Authorization', 'Basic dXNlcjpwYXNz').expect(401);
        expect(lookup).not.toHaveBeenCalled();
      } finally {
        lookup.mockRestore();
      }
    });
  });

  describe('tenancy', () => {
    it("a key sees only its organization's campaigns", async () => {
      const a = await tenant();
      const b = await tenant();
      const ofA = await createCampaign(a);
      const ofB1 = await createCampaign(b);
      const ofB2 = await createCampaign(b);

      expect((await listCampaigns(a)).map((c) => c.id)).toEqual([ofA.id]);
      expect((await listCampaigns(b)).map((c) => c.id)).toEqual([ofB2.id, ofB1.id]);
    });

    it("names are unique per organization only: A may reuse B's name", async () => {
      const a = await tenant();
      const b = await tenant();
      const name = uniqueName('Shared');
      await createCampaign(b, name);
      expect((await createCampaign(a, name)).name).toBe(name);
    });

    it("PATCH and DELETE of another organization's campaign are 404 and change nothing", async () => {
      const a = await tenant();
      const b = await tenant();
      const ofB = await createCampaign(b);

      const renamed = await request(t.server)
        .patch(`${CAMPAIGNS}/${ofB.id}`)
        .set('x-api-key', a.key)
        .send({ name: uniqueName('Hijack') })
        .expect(404);
      expect(renamed.body).toEqual(CAMPAIGN_NOT_FOUND);
      const deleted = await request(t.server).delete(`${CAMPAIGNS}/${ofB.id}`).set('x-api-key', a.key).expect(404);
      expect(deleted.body).toEqual(CAMPAIGN_NOT_FOUND);

      expect(await listCampaigns(b)).toEqual([expect.objectContaining({ id: ofB.id, name: ofB.name })]);
      expect(await listCampaigns(a)).toEqual([]);
    });

    it('a second key of the same organization sees the same campaigns', async () => {
      const a = await tenant();
      const ofA = await createCampaign(a);
      const other: Tenant = {
        organizationId: a.organizationId,
        key: await t.createKey(a.organizationId, ['custom_links:read']),
      };
      expect((await listCampaigns(other)).map((c) => c.id)).toEqual([ofA.id]);
    });
  });
});
