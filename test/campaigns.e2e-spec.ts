import request from 'supertest';
import type { Campaign, CampaignPage } from './support/api-types';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';

/** Campaigns through HTTP: docs/api.md §2.9, §4.5, §12.4, §7.2 (404 text), §8.3 (link mutations). */

const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CONFLICT = { detail: 'The operation conflicts with current state or idempotency history.' };
const NOT_FOUND = { detail: "Custom Link campaign not found for the key's organization." };
const LIMITED = { detail: 'Rate limit or organization quota exceeded.' };

let seq = 0;
/** A name no other test uses, so clashes come only from what a test sets up. */
const uniqueName = (label: string) => `${label} ${Date.now().toString(36)}-${++seq}`;

describe('custom link campaigns', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  // Each test gets its own organization: the link-mutation limit (10 / min) is per organization.
  const tenant = () => t.createTenant(['custom_links:read', 'custom_links:write']);
  const create = (who: Tenant, name: unknown) =>
    request(t.server).post(CAMPAIGNS).set('x-api-key', who.key).send({ name });
  const rename = (who: Tenant, id: string, name: unknown) =>
    request(t.server).patch(`${CAMPAIGNS}/${id}`).set('x-api-key', who.key).send({ name });
  const remove = (who: Tenant, id: string) => request(t.server).delete(`${CAMPAIGNS}/${id}`).set('x-api-key', who.key);
  const list = async (who: Tenant): Promise<Campaign[]> => {
    const res = await request(t.server).get(CAMPAIGNS).set('Authorization', `Bearer ${who.key}`).expect(200);
    expect(Object.keys(res.body as object)).toEqual(['campaigns', 'total', 'limit', 'offset', 'nextCursor']);
    return (res.body as CampaignPage).campaigns;
  };
  const createOk = async (who: Tenant, name: string): Promise<Campaign> =>
    (await create(who, name).expect(201)).body as Campaign;

  describe('create', () => {
    it('answers 201 with every field of docs/api.md §2.9, the name trimmed', async () => {
      const who = await tenant();
      const name = uniqueName('Launch');
      const before = Date.now();
      const res = await create(who, `  ${name}\t `)
        .expect(201)
        .expect('Content-Type', /application\/json/);
      const after = Date.now();
      const body = res.body as Campaign;

      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        name,
        createdAt: expect.stringMatching(ISO_MS_Z),
        updatedAt: expect.stringMatching(ISO_MS_Z),
        customLinkCount: 0,
        activeCustomLinkCount: 0,
      });
      const createdAt = Date.parse(body.createdAt);
      expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(createdAt).toBeLessThanOrEqual(after + 1000);
      expect(Date.parse(body.updatedAt)).toBeGreaterThanOrEqual(createdAt);
      expect(await list(who)).toEqual([body]);
    });

    it('lists newest first', async () => {
      const who = await tenant();
      const first = await createOk(who, uniqueName('First'));
      const second = await createOk(who, uniqueName('Second'));
      const third = await createOk(who, uniqueName('Third'));

      expect((await list(who)).map((c) => c.id)).toEqual([third.id, second.id, first.id]);
    });

    it('refuses a name the organization already uses, ignoring case and surrounding spaces', async () => {
      const who = await tenant();
      const name = uniqueName('Enterprise Q4');
      const original = await createOk(who, name);

      await create(who, name).expect(409, CONFLICT);
      await create(who, name.toUpperCase()).expect(409, CONFLICT);
      await create(who, `   ${name.toLowerCase()}  `).expect(409, CONFLICT);
      expect(await list(who)).toEqual([original]);
    });

    it('allows the same name in two organizations, and each lists only its own', async () => {
      const [a, b] = [await tenant(), await tenant()];
      const name = uniqueName('Shared');
      const inA = await createOk(a, name);
      const inB = await createOk(b, name.toLowerCase());
      const onlyA = await createOk(a, uniqueName('Only A'));

      expect(inB.id).not.toBe(inA.id);
      expect(await list(a)).toEqual([onlyA, inA]);
      expect(await list(b)).toEqual([inB]);
    });
  });

  describe('rename', () => {
    it('answers 200 with the new trimmed name; id and createdAt stay, updatedAt moves', async () => {
      const who = await tenant();
      const original = await createOk(who, uniqueName('Before'));
      // updatedAt has millisecond precision: make sure the clock has moved past it.
      await eventually(async () => Date.now() > Date.parse(original.updatedAt) + 2, 1000, 5);
      const newName = uniqueName('After');

      const res = await rename(who, original.id, ` ${newName} `).expect(200);
      const renamed = res.body as Campaign;

      expect(renamed).toEqual({
        id: original.id,
        name: newName,
        createdAt: original.createdAt,
        updatedAt: expect.stringMatching(ISO_MS_Z),
        customLinkCount: 0,
        activeCustomLinkCount: 0,
      });
      expect(Date.parse(renamed.updatedAt)).toBeGreaterThan(Date.parse(original.updatedAt));
      expect(await list(who)).toEqual([renamed]);
    });

    it("refuses another campaign's name (any case) with 409 and changes nothing", async () => {
      const who = await tenant();
      const taken = await createOk(who, uniqueName('Taken'));
      const other = await createOk(who, uniqueName('Other'));

      await rename(who, other.id, taken.name).expect(409, CONFLICT);
      await rename(who, other.id, `  ${taken.name.toUpperCase()} `).expect(409, CONFLICT);
      expect(await list(who)).toEqual([other, taken]);
    });

    it('accepts its own name in another case', async () => {
      const who = await tenant();
      const original = await createOk(who, uniqueName('Mixed Case'));

      const res = await rename(who, original.id, original.name.toUpperCase()).expect(200);
      expect(res.body).toMatchObject({ id: original.id, name: original.name.toUpperCase() });
    });

    it("answers 404 for an unknown id and for another organization's campaign, which stays as it was", async () => {
      const [who, other] = [await tenant(), await tenant()];
      const theirs = await createOk(other, uniqueName('Theirs'));

      await rename(who, '0190a000-0000-7000-8000-000000000000', uniqueName('X')).expect(404, NOT_FOUND);
      await rename(who, theirs.id, uniqueName('Hijacked')).expect(404, NOT_FOUND);
      expect(await list(other)).toEqual([theirs]);
    });
  });

  describe('delete', () => {
    it('answers 204 with no body; the campaign leaves the list; a second delete is 404', async () => {
      const who = await tenant();
      const keep = await createOk(who, uniqueName('Keep'));
      const doomed = await createOk(who, uniqueName('Doomed'));

      const res = await remove(who, doomed.id).expect(204);
      expect(res.text).toBe('');
      expect(res.headers['content-type']).toBeUndefined();
      expect(await list(who)).toEqual([keep]);
      await remove(who, doomed.id).expect(404, NOT_FOUND);
    });

    it('frees the name for a new campaign', async () => {
      const who = await tenant();
      const name = uniqueName('Reused');
      const first = await createOk(who, name);
      await remove(who, first.id).expect(204);

      const second = await createOk(who, name.toLowerCase());
      expect(second.id).not.toBe(first.id);
    });

    it("answers 404 for an unknown id and for another organization's campaign, which survives", async () => {
      const [who, other] = [await tenant(), await tenant()];
      const theirs = await createOk(other, uniqueName('Theirs'));

      await remove(who, '0190a000-0000-7000-8000-000000000000').expect(404, NOT_FOUND);
      await remove(who, theirs.id).expect(404, NOT_FOUND);
      expect(await list(other)).toEqual([theirs]);
    });
  });

  describe('link-mutation limit (10 per minute per organization)', () => {
    it('refuses the 11th create/rename/delete with 429 and its headers; reads are free; other organizations are unaffected', async () => {
      const [who, other] = [await tenant(), await tenant()];
      const campaigns: Campaign[] = [];
      for (let i = 0; i < 4; i++) {
        campaigns.push(await createOk(who, uniqueName(`Limit ${i}`)));
        await list(who); // reads do not count
      }
      for (let i = 0; i < 3; i++) await rename(who, campaigns[i].id, uniqueName(`Renamed ${i}`)).expect(200);
      for (let i = 0; i < 3; i++) await remove(who, campaigns[i].id).expect(204);
      const survivors = await list(who);
      expect(survivors).toHaveLength(1);

      const nowSeconds = Math.floor(Date.now() / 1000);
      const refused = await create(who, uniqueName('Eleventh')).expect(429, LIMITED);
      const retryAfter = refused.headers['retry-after'];
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(refused.headers['x-ratelimit-limit']).toBe('10');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      const reset = refused.headers['x-ratelimit-reset'];
      expect(reset).toMatch(/^\d+$/);
      expect(Number(reset)).toBeGreaterThan(nowSeconds);
      expect(Number(reset)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 61);

      // Every kind of mutation is refused now, and nothing was written.
      await rename(who, campaigns[3].id, uniqueName('Late rename')).expect(429, LIMITED);
      await remove(who, campaigns[3].id).expect(429, LIMITED);
      expect(await list(who)).toEqual(survivors);

      // Another organization has its own budget.
      await create(other, uniqueName('Unaffected')).expect(201);
    });
  });
});
