import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import request from 'supertest';
import { EventFold } from '../src/modules/engagement';
import type {
  Campaign,
  Erasure,
  EventInput,
  EventType,
  Job,
  JobEnvelope,
  JobItemPage,
  LinkPage,
} from './support/api-types';
import { foldNow } from './support/fold';
import { createTestApp, eventually, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * The rows derived from custom_links without a trigger (issue 35, migration LinkDerivedWrites): every
 * campaign's figures (campaign_engagement) stay exactly a recount of the links filed in it, and every
 * link's search copy (custom_link_search) a copy of its searched text, after each kind of write of
 * links: creation jobs, PATCH, bulk moves and deactivations, folds of events, a refold, an erasure and
 * the unfiling of a deleted campaign; an organization's deletion takes them with its links.
 */
jest.setTimeout(180_000);

const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const LINKS = '/api/v1/custom-links';
const EVENTS = '/api/v1/events';
const ERASURES = '/api/v1/privacy/erasures';
const RUN = randomUUID().slice(0, 8);
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** campaign_engagement's counters, each with what one link adds to it (docs/api.md §2.10). */
const COUNTED: [column: string, perLink: string][] = [
  ['links', 'count(l.id)'],
  ['active_links', 'count(l.id) FILTER (WHERE l.active)'],
  ['opened', `count(l.id) FILTER (WHERE l.stage <> 'not_opened')`],
  ['started', `count(l.id) FILTER (WHERE l.stage IN ('started', 'engaged'))`],
  ['engaged', `count(l.id) FILTER (WHERE l.stage = 'engaged')`],
  ['lead_submitted', 'count(l.first_lead_submitted_at)'],
  ['meeting_clicked', 'count(l.first_meeting_clicked_at)'],
  ['meeting_booked', 'count(l.first_meeting_booked_at)'],
  ['bot_scanned_only', 'count(l.id) FILTER (WHERE l.bot_open_count > 0 AND NOT l.open_observed)'],
  ['page_views', 'coalesce(sum(l.page_view_count), 0)'],
  ['loads', 'coalesce(sum(l.load_count), 0)'],
  ['persistent_visitors', 'coalesce(sum(l.persistent_visitor_count), 0)'],
  ['ephemeral_page_views', 'coalesce(sum(l.ephemeral_page_view_count), 0)'],
  ['sessions', 'coalesce(sum(l.session_count), 0)'],
  ['started_sessions', 'coalesce(sum(l.started_session_count), 0)'],
  ['engaged_sessions', 'coalesce(sum(l.engaged_session_count), 0)'],
];
const TIMES: [column: string, aggregate: string][] = [
  ['first_opened_at', 'min'],
  ['last_opened_at', 'max'],
  ['last_activity_at', 'max'],
];

describe('campaign figures and link search copies kept by the links’ writers', () => {
  let t: TestApp;
  let pool: Pool;
  let who: Tenant;
  let other: Tenant;
  const campaigns: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };
  /** The links of `who` by the campaign they were created in ('none': unfiled). */
  const links: Record<'a' | 'b' | 'none', string[]> = { a: [], b: [], none: [] };

  beforeAll(async () => {
    t = await createTestApp({
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '1000000',
      LINK_MUTATIONS_PER_MINUTE: '1000000',
    });
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    [who, other] = await Promise.all([t.createTenant(), t.createTenant()]);
  });
  afterAll(async () => {
    await pool?.end();
    await t?.close();
  });

  const api = (tenant: Tenant) => ({
    get: (path: string) => request(t.server).get(path).set('x-api-key', tenant.key),
    post: (path: string, body: object) => request(t.server).post(path).set('x-api-key', tenant.key).send(body),
    // A change to the card's text queues a render: a key for the job it records.
    patch: (path: string, body: object) =>
      request(t.server).patch(path).set('x-api-key', tenant.key).set('Idempotency-Key', randomUUID()).send(body),
    delete: (path: string) => request(t.server).delete(path).set('x-api-key', tenant.key),
  });

  async function createCampaign(tenant: Tenant, name: string): Promise<string> {
    return (
      (
        await api(tenant)
          .post(CAMPAIGNS, { name: `${name} ${RUN}` })
          .expect(201)
      ).body as Campaign
    ).id;
  }

  /** Links created by a job (POST /custom-links on the app's worker); their ids in input order. */
  async function createLinks(tenant: Tenant, prefix: string, n: number, campaignId?: string): Promise<string[]> {
    const input = Array.from({ length: n }, (_, i) => ({
      firstName: `${prefix}${i}`,
      lastName: `Zq${RUN}`,
      email: `${prefix.toLowerCase()}${i}.${RUN}@derived.example`,
      company: `${prefix} Corp ${i % 2}`,
      shareThumbnailUrl: 'https://cdn.example.com/card.png',
    }));
    const res = await request(t.server)
      .post(LINKS)
      .set('x-api-key', tenant.key)
      .set('Idempotency-Key', randomUUID())
      .send(campaignId ? { links: input, campaign: { id: campaignId } } : { links: input })
      .expect(202);
    const jobId = (res.body as JobEnvelope).job.id;
    await eventually(
      async () =>
        ((await api(tenant).get(`/api/v1/custom-link-jobs/${jobId}`).expect(200)).body as Job).status === 'completed',
      30_000,
    );
    const items = (await api(tenant).get(`/api/v1/custom-link-jobs/${jobId}/items?limit=200`).expect(200))
      .body as JobItemPage;
    return items.items.map((item) => item.customLinkId!);
  }

  /** Events over the links at hours after `base`: human opens, page views and sessions, conversions, bot opens. */
  async function sendEvents(tenant: Tenant, over: string[], base: number): Promise<void> {
    const kinds: EventType[] = [
      'open',
      'page_view',
      'session_started',
      'session_engaged',
      'lead_submitted',
      'meeting_booked',
    ];
    const events: EventInput[] = over.flatMap((customLinkId, n) =>
      kinds.slice(0, 1 + ((n + base) % kinds.length)).map((type, k) => ({
        eventId: `derived-${randomUUID()}`,
        type,
        customLinkId,
        occurredAt: new Date(Date.UTC(2026, 1, 1, base + n, k)).toISOString(),
        ...(type === 'page_view' ? { pageViewId: `pv-${n}`, visitorId: `v-${n % 3}` } : {}),
        ...(type.startsWith('session_') ? { sessionId: randomUUID() } : {}),
      })),
    );
    // A link only bots opened, and one bot open of an opened link.
    events.push(
      {
        eventId: `derived-${randomUUID()}`,
        type: 'open',
        customLinkId: over[0],
        userAgent: BOT,
        occurredAt: new Date(Date.UTC(2026, 1, 2, base)).toISOString(),
      },
      {
        eventId: `derived-${randomUUID()}`,
        type: 'open',
        customLinkId: over[over.length - 1],
        userAgent: BOT,
        occurredAt: new Date(Date.UTC(2026, 1, 3, base)).toISOString(),
      },
    );
    await api(tenant).post(EVENTS, { events }).expect(202);
    await foldNow(t.app, tenant.organizationId);
  }

  /** Each campaign of the organization: its stored figures (zeros and nulls without a row) and a recount of its links, apart where they differ. */
  async function figureDrift(organizationId: string): Promise<unknown[]> {
    const stored = `SELECT c.id AS campaign_id, ${COUNTED.map(([column]) => `coalesce(ce.${column}, 0)::int AS ${column}`).join(', ')},
                           ${TIMES.map(([column]) => `ce.${column}`).join(', ')}
                      FROM campaigns c LEFT JOIN campaign_engagement ce ON ce.organization_id = c.organization_id AND ce.campaign_id = c.id
                     WHERE c.organization_id = $1`;
    const recount = `SELECT c.id AS campaign_id, ${COUNTED.map(([column, perLink]) => `(${perLink})::int AS ${column}`).join(', ')},
                            ${TIMES.map(([column, aggregate]) => `${aggregate}(l.${column}) AS ${column}`).join(', ')}
                       FROM campaigns c LEFT JOIN custom_links l ON l.organization_id = c.organization_id AND l.campaign_id = c.id
                      WHERE c.organization_id = $1 GROUP BY c.id`;
    const { rows } = await pool.query(
      `SELECT 'stored' AS side, d.* FROM ((${stored}) EXCEPT (${recount})) d
       UNION ALL SELECT 'recount', d.* FROM ((${recount}) EXCEPT (${stored})) d ORDER BY campaign_id, side`,
      [organizationId],
    );
    return rows;
  }

  /** The organization's links and search copies that do not match (one missing, or its text or company differing). */
  async function searchDrift(organizationId: string): Promise<unknown[]> {
    const { rows } = await pool.query(
      `SELECT l.id AS link, s.custom_link_id AS copy FROM
         (SELECT * FROM custom_links WHERE organization_id = $1) l
         FULL JOIN (SELECT * FROM custom_link_search WHERE organization_id = $1) s ON s.custom_link_id = l.id
        WHERE l.id IS NULL OR s.custom_link_id IS NULL OR (s.search_text, s.company_key) IS DISTINCT FROM (l.search_text, lower(l.company))`,
      [organizationId],
    );
    return rows;
  }

  async function expectInStep(): Promise<void> {
    for (const tenant of [who, other]) {
      expect(await figureDrift(tenant.organizationId)).toEqual([]);
      expect(await searchDrift(tenant.organizationId)).toEqual([]);
    }
  }

  /** The campaign's stored figures. */
  async function stored(campaignId: string): Promise<Record<string, unknown> | undefined> {
    const { rows } = await pool.query(`SELECT * FROM campaign_engagement WHERE campaign_id = $1`, [campaignId]);
    return rows[0] as Record<string, unknown> | undefined;
  }

  const listed = async (q: Record<string, string>) =>
    ((await api(who).get(LINKS).query(q).expect(200)).body as LinkPage).customLinks.map((link) => link.id).sort();

  it('link creation jobs: figures of the campaigns filed in, a search copy per link', async () => {
    campaigns.a = await createCampaign(who, 'Derived A');
    campaigns.b = await createCampaign(who, 'Derived B');
    campaigns.c = await createCampaign(who, 'Derived C');
    links.a = await createLinks(who, 'Ann', 5, campaigns.a);
    links.b = await createLinks(who, 'Bob', 4, campaigns.b);
    links.none = await createLinks(who, 'Nia', 2);
    await createLinks(other, 'Oz', 3, await createCampaign(other, 'Other'));

    expect(await stored(campaigns.a)).toMatchObject({ links: '5', active_links: '5', opened: '0' });
    expect(await stored(campaigns.c)).toBeUndefined();
    expect(await listed({ q: `ann3.${RUN}` })).toEqual([links.a[3]]);
    expect(await listed({ company: 'bob corp 1' })).toEqual([links.b[1], links.b[3]].sort());
    await expectInStep();
  });

  it('folds of events: counters, stages and times', async () => {
    await sendEvents(who, [...links.a, ...links.b.slice(0, 2), links.none[0]], 0);
    await sendEvents(
      other,
      (
        await pool.query<{ id: string }>(`SELECT id FROM custom_links WHERE organization_id = $1`, [
          other.organizationId,
        ])
      ).rows.map((r) => r.id),
      3,
    );

    const a = await stored(campaigns.a);
    expect(Number(a?.opened)).toBeGreaterThan(0);
    expect(Number(a?.engaged)).toBeGreaterThan(0);
    expect(a?.first_opened_at).toEqual(new Date(Date.UTC(2026, 1, 1, 0, 0)));
    await expectInStep();
  });

  it('PATCH: a move between campaigns (times recounted), unfiling, a renamed link found by its new name', async () => {
    // The campaign's earliest link leaves it: its first open is another link's now.
    await api(who)
      .patch(`${LINKS}/${links.a[0]}`, { campaign: { id: campaigns.b } })
      .expect(200);
    await api(who).patch(`${LINKS}/${links.a[1]}`, { campaign: null }).expect(200);
    await api(who)
      .patch(`${LINKS}/${links.b[2]}`, { firstName: `Renamedzq${RUN}`, company: 'New Co' })
      .expect(200);

    expect((await stored(campaigns.a))?.first_opened_at).toEqual(new Date(Date.UTC(2026, 1, 1, 2, 0)));
    expect(await listed({ q: `renamedzq${RUN}` })).toEqual([links.b[2]]);
    expect(await listed({ company: 'new co' })).toEqual([links.b[2]]);
    expect(await listed({ q: `bob2.${RUN}` })).toEqual([links.b[2]]);
    await expectInStep();
  });

  it('bulk actions: deactivation, a move of links of two campaigns into a third', async () => {
    await api(who)
      .post(`${LINKS}/actions`, { action: 'deactivate', customLinkIds: [links.a[2], links.b[0], links.none[1]] })
      .expect(200);
    await api(who)
      .post(`${LINKS}/actions`, {
        action: 'move',
        campaignId: campaigns.c,
        customLinkIds: [links.a[3], links.b[1], links.none[0]],
      })
      .expect(200);

    expect(await stored(campaigns.c)).toMatchObject({ links: '3' });
    await expectInStep();
  });

  it('more events folded into the moved links, then a refold of the whole log', async () => {
    await sendEvents(who, [links.a[3], links.b[1], links.b[3], links.none[0]], 7);
    await expectInStep();

    await t.app.get(EventFold).refold(who.organizationId);
    await foldNow(t.app, who.organizationId);
    await expectInStep();
  });

  it('an erasure rewrites the links’ searched text and nothing a campaign counts', async () => {
    const before = await stored(campaigns.a);
    const res = await api(who)
      .post(ERASURES, { email: `ann4.${RUN}@derived.example` })
      .expect(202);
    const done = await readUntil(
      async () =>
        (
          await api(who)
            .get(`${ERASURES}/${(res.body as Erasure).id}`)
            .expect(200)
        ).body as Erasure,
      (erasure) => erasure.status === 'completed' || erasure.status === 'failed',
      60_000,
    );

    expect(done).toMatchObject({ status: 'completed', counts: { customLinks: 1 } });
    expect(await listed({ q: `ann4.${RUN}` })).toEqual([]);
    expect(await stored(campaigns.a)).toEqual(before);
    await expectInStep();
  });

  it('a deleted campaign unfiles its links and its figures go', async () => {
    await api(who).delete(`${CAMPAIGNS}/${campaigns.b}`).expect(204);

    expect(await stored(campaigns.b)).toBeUndefined();
    await expectInStep();
  });

  it('a deleted organization takes its figures and search copies with its links, the other’s stay', async () => {
    await pool.query(`DELETE FROM organizations WHERE id = $1`, [other.organizationId]);

    const { rows } = await pool.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM campaign_engagement WHERE organization_id = $1)
            + (SELECT count(*) FROM custom_link_search WHERE organization_id = $1) AS n`,
      [other.organizationId],
    );
    expect(Number(rows[0].n)).toBe(0);
    expect(await searchDrift(who.organizationId)).toEqual([]);
    expect(await figureDrift(who.organizationId)).toEqual([]);
  });
});
