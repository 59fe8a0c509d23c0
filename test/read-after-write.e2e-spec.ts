import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type {
  Account,
  Campaign,
  CampaignPage,
  Link,
  PeoplePage,
  SessionDetail,
  SessionPage,
} from './support/api-types';
import { createLink } from './support/links';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * A client that writes and then reads at once sees its write, whatever serves the read: with
 * DATABASE_REPLICA_URLS (the replica run of .ci/run) the GET comes right after the write, before a
 * replica may have replayed it (docs/scaling.md "Read replicas", read-your-writes). Every GET
 * below follows its write with nothing in between.
 */
jest.setTimeout(60_000);

const CAMPAIGNS = '/api/v1/custom-link-campaigns';

describe('read after write', () => {
  let t: TestApp;
  let who: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all', LINK_MUTATIONS_PER_MINUTE: '100000' });
    who = await t.createTenant();
  });
  afterAll(() => t.close());

  const get = async <T>(path: string) =>
    (await request(t.server).get(path).set('x-api-key', who.key).expect(200)).body as T;

  it('an ingested session, its person and account read back at once, and so does its update', async () => {
    const id = newSessionId();
    const domain = `raw-${Date.now().toString(36)}.example`;
    const email = `ada@${domain}`;
    await ingest(t.server, who.key, id, sessionBody({ email, buyingIntent: 'low' })).expect(200);
    expect((await get<SessionDetail>(`/api/v1/sessions/${id}`)).buyingIntent).toBe('low');
    expect((await get<SessionPage>('/api/v1/sessions')).sessions.map((s) => s.id)).toContain(id);
    expect((await get<PeoplePage>('/api/v1/people')).people.map((p) => p.email)).toContain(email);
    expect((await get<Account>(`/api/v1/accounts/${domain}`)).accountDomain).toBe(domain);

    await ingest(t.server, who.key, id, sessionBody({ email, buyingIntent: 'high' })).expect(200);
    expect((await get<SessionDetail>(`/api/v1/sessions/${id}`)).buyingIntent).toBe('high');
  });

  it('a campaign created, renamed and deleted lists so at once', async () => {
    const names = async () => (await get<CampaignPage>(CAMPAIGNS)).campaigns.map((c) => c.name);
    const name = `Launch ${Date.now().toString(36)}`;
    const campaign = (await request(t.server).post(CAMPAIGNS).set('x-api-key', who.key).send({ name }).expect(201))
      .body as Campaign;
    expect(await names()).toContain(name);
    await request(t.server)
      .patch(`${CAMPAIGNS}/${campaign.id}`)
      .set('x-api-key', who.key)
      .send({ name: `${name} v2` })
      .expect(200);
    expect(await names()).toContain(`${name} v2`);
    await request(t.server).delete(`${CAMPAIGNS}/${campaign.id}`).set('x-api-key', who.key).expect(204);
    expect(await names()).not.toContain(`${name} v2`);
  });

  it('a link updated reads back at once', async () => {
    const link = await createLink(t.server, who.key);
    for (const lastName of ['Fairfax', 'Byron']) {
      await request(t.server)
        .patch(`/api/v1/custom-links/${link.id}`)
        .set('x-api-key', who.key)
        .set('Idempotency-Key', randomUUID())
        .send({ lastName })
        .expect(200);
      expect((await get<Link>(`/api/v1/custom-links/${link.id}`)).lastName).toBe(lastName);
    }
  });
});
