import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { detailOf } from './support/api-responses';
import type { Campaign, CampaignPage } from './support/api-types';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/** Idempotency-Key on campaign mutations through HTTP (docs/api.md §10). */

const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const CONFLICT = { detail: 'The operation conflicts with current state or idempotency history.' };
const LIMITED = { detail: 'Rate limit or organization quota exceeded.' };

let seq = 0;
const uniqueName = (label: string) => `${label} ${Date.now().toString(36)}-${++seq}`;

describe('Idempotency-Key', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    // Listening once lets parallel requests share one server instead of supertest starting one each.
    await t.app.listen(0);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const tenant = () => t.createTenant(['custom_links:read', 'custom_links:write']);
  const post = (who: Tenant, body: object, key?: string) => {
    const req = request(t.server).post(CAMPAIGNS).set('x-api-key', who.key);
    return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
  };
  const list = async (who: Tenant): Promise<Campaign[]> =>
    ((await request(t.server).get(CAMPAIGNS).set('x-api-key', who.key).expect(200)).body as CampaignPage).campaigns;
  const storedRecords = async (who: Tenant, key: string) =>
    db.query<{ method: string; route: string; state: string; response_status: number }[]>(
      `SELECT method, route, state, response_status FROM idempotency_records WHERE organization_id = $1 AND idempotency_key = $2`,
      [who.organizationId, key],
    );

  it('replays the stored 201 for the same key and body, with Idempotent-Replayed, and creates nothing more', async () => {
    const who = await tenant();
    const key = randomUUID();
    const body = { name: uniqueName('Once') };

    const first = await post(who, body, key).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await post(who, body, key).expect(201);
    const third = await post(who, { ...body }, key).expect(201);

    for (const replay of [second, third]) {
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.headers['content-type']).toMatch(/application\/json/);
      expect(replay.body).toEqual(first.body);
      // A replay is still an authenticated response: it carries the request-rate figures.
      expect(replay.headers['x-ratelimit-limit']).toBe(String(t.config.limits.requestsPerMinute));
    }
    expect((await list(who)).map((c) => c.id)).toEqual([(first.body as Campaign).id]);
    expect(await storedRecords(who, key)).toEqual([
      { method: 'POST', route: `${CAMPAIGNS}`, state: 'completed', response_status: 201 },
    ]);
  });

  it('does not charge the link-mutation budget for replays', async () => {
    const who = await tenant();
    const key = randomUUID();
    const body = { name: uniqueName('Budget') };
    await post(who, body, key).expect(201);
    for (let i = 0; i < 12; i++) await post(who, body, key).expect(201).expect('Idempotent-Replayed', 'true');

    // Only the original counted: nine more mutations fit in the budget of ten, the next does not.
    for (let i = 0; i < 9; i++) await post(who, { name: uniqueName(`Fill ${i}`) }).expect(201);
    await post(who, { name: uniqueName('Over') }).expect(429, LIMITED);
    // Replays still answer once the budget is spent: nothing runs again.
    await post(who, body, key).expect(201).expect('Idempotent-Replayed', 'true');
  });

  it('answers 409 for the same key with a different body, and runs nothing', async () => {
    const who = await tenant();
    const key = randomUUID();
    const original = await post(who, { name: uniqueName('Original') }, key).expect(201);

    const other = await post(who, { name: uniqueName('Different') }, key).expect(409, CONFLICT);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect((await list(who)).map((c) => c.id)).toEqual([(original.body as Campaign).id]);
  });

  it('checks the key before the body: an invalid body under a used key is a 409, not a 422', async () => {
    const who = await tenant();
    const key = randomUUID();
    await post(who, { name: uniqueName('First') }, key).expect(201);

    await post(who, { name: 42 }, key).expect(409, CONFLICT);
    expect(await storedRecords(who, key)).toEqual([
      { method: 'POST', route: CAMPAIGNS, state: 'completed', response_status: 201 },
    ]);
  });

  it('stores a 422 like any other 4xx and replays it for the same key and body', async () => {
    const who = await tenant();
    const key = randomUUID();
    const invalid = { name: 42 };

    const first = await post(who, invalid, key).expect(422);
    expect(detailOf(first).map((d) => d.loc)).toEqual([['body', 'name']]);
    const replay = await post(who, invalid, key).expect(422);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await storedRecords(who, key)).toEqual([
      { method: 'POST', route: CAMPAIGNS, state: 'completed', response_status: 422 },
    ]);
    // Without a key the same body is validated (and refused) every time, and nothing is stored.
    await post(who, invalid).expect(422);
    expect(await list(who)).toEqual([]);
  });

  it('keeps keys apart per method and route: the same key on PATCH and DELETE runs them', async () => {
    const who = await tenant();
    const key = randomUUID();
    const body = { name: uniqueName('Route') };
    const created = (await post(who, body, key).expect(201)).body as Campaign;

    // Same key and even the same body, on another method and route: a new request, not a replay or a 409.
    const renamed = await request(t.server)
      .patch(`${CAMPAIGNS}/${created.id}`)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', key)
      .send(body)
      .expect(200);
    expect(renamed.headers['idempotent-replayed']).toBeUndefined();
    expect(renamed.body).toMatchObject({ id: created.id, name: body.name });

    const deleted = await request(t.server)
      .delete(`${CAMPAIGNS}/${created.id}`)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', key)
      .expect(204);
    expect(deleted.headers['idempotent-replayed']).toBeUndefined();
    expect(await list(who)).toEqual([]);

    // The DELETE's own 204 is replayed (with no body), and nothing runs: no 404 for the gone campaign.
    const replayedDelete = await request(t.server)
      .delete(`${CAMPAIGNS}/${created.id}`)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', key)
      .expect(204);
    expect(replayedDelete.headers['idempotent-replayed']).toBe('true');
    expect(replayedDelete.text).toBe('');
    // And the POST's record is still the POST's: replayed, not re-run.
    await post(who, body, key).expect(201, created).expect('Idempotent-Replayed', 'true');
    expect(await list(who)).toEqual([]);
  });

  it("does not replay one organization's key for another", async () => {
    const [a, b] = [await tenant(), await tenant()];
    const key = randomUUID();
    const body = { name: uniqueName('Per org') };

    const inA = (await post(a, body, key).expect(201)).body as Campaign;
    const inB = await post(b, body, key).expect(201);
    expect(inB.headers['idempotent-replayed']).toBeUndefined();
    expect((inB.body as Campaign).id).not.toBe(inA.id);
    expect((await list(b)).map((c) => c.id)).toEqual([(inB.body as Campaign).id]);
    expect((await list(a)).map((c) => c.id)).toEqual([inA.id]);
  });

  it('lets exactly one of 10 concurrent requests with one key run; the others replay it or get 409', async () => {
    const who = await tenant();
    const key = randomUUID();
    const body = { name: uniqueName('Concurrent') };

    const responses = await Promise.all(Array.from({ length: 10 }, () => post(who, body, key)));

    const campaigns = await list(who);
    expect(campaigns).toHaveLength(1);
    const originals = responses.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(originals).toHaveLength(1);
    for (const res of responses) {
      if (res.status === 201) {
        expect(res.body).toEqual(originals[0].body);
      } else {
        expect(res.status).toBe(409);
        expect(res.body).toEqual(CONFLICT);
      }
    }
    expect((originals[0].body as Campaign).id).toBe(campaigns[0].id);
  });

  it('replays a stored 4xx: a 409 name clash answers 409 again even after the clash is gone', async () => {
    const who = await tenant();
    const name = uniqueName('Clash');
    const existing = (await post(who, { name }).expect(201)).body as Campaign;
    const key = randomUUID();

    const clash = await post(who, { name: name.toUpperCase() }, key).expect(409, CONFLICT);
    expect(clash.headers['idempotent-replayed']).toBeUndefined();
    await request(t.server).delete(`${CAMPAIGNS}/${existing.id}`).set('x-api-key', who.key).expect(204);

    // Run again, the request would now succeed; the stored answer is replayed instead.
    await post(who, { name: name.toUpperCase() }, key).expect(409, CONFLICT).expect('Idempotent-Replayed', 'true');
    expect(await list(who)).toEqual([]);
  });

  it('does not store a 429: the key is released and the request runs again', async () => {
    const who = await tenant();
    for (let i = 0; i < 10; i++) await post(who, { name: uniqueName(`Spend ${i}`) }).expect(201);
    const key = randomUUID();
    const body = { name: uniqueName('Refused') };

    const refused = await post(who, body, key).expect(429, LIMITED);
    expect(refused.headers['idempotent-replayed']).toBeUndefined();
    expect(await storedRecords(who, key)).toEqual([]);

    // Not a replay of the 429, and not a 409 for a key in use: the request is evaluated afresh.
    const again = await post(who, body, key).expect(429, LIMITED);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['retry-after']).toMatch(/^\d+$/);
    expect(await storedRecords(who, key)).toEqual([]);
  });

  it('validates the key length: 256 characters is a 422 at ["header","idempotency-key"], 255 is accepted', async () => {
    const who = await tenant();
    const tooLong = 'k'.repeat(256);

    await post(who, { name: uniqueName('Long key') }, tooLong).expect(422, {
      detail: [
        {
          type: 'string_too_long',
          loc: ['header', 'idempotency-key'],
          msg: 'String should have at most 255 characters',
          input: tooLong,
          ctx: { max_length: 255 },
        },
      ],
    });
    expect(await list(who)).toEqual([]);

    const longest = 'k'.repeat(255);
    const body = { name: uniqueName('Longest key') };
    await post(who, body, longest).expect(201);
    await post(who, body, longest).expect(201).expect('Idempotent-Replayed', 'true');
  });
});
