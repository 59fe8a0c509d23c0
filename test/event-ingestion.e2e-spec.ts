import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import request from 'supertest';
import {
  engagementOf,
  statsOf,
  storedFormOf,
  type EngagementEvent,
  type IngestedEventType,
} from '../src/modules/engagement/rules/engagement-rollup';
import { insertLinks, oracleCampaignEngagement } from './support/aggregates';
import type { EventInput, EventsAnswer, Link } from './support/api-types';
import { foldNow } from './support/fold';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';
import { OrganizationsService } from '../src/modules/organizations';

/**
 * Event batches committed together (group commit, issue 21): concurrent batches of an organization
 * share a transaction, so these tests post many at once and check that the answers and the rollups
 * are those of the batches taken one after another.
 */
jest.setTimeout(120_000);

const EVENTS = '/api/v1/events';
const TYPES: IngestedEventType[] = [
  'open',
  'page_view',
  'page_view',
  'session_started',
  'session_engaged',
  'session_ended',
  'lead_submitted',
  'meeting_clicked',
  'meeting_booked',
];
const SESSIONS = Array.from({ length: 6 }, () => randomUUID());

/** A pool of events over the links: every one of a fixed content, so a repeat is an identical duplicate. */
function eventPool(linkIds: string[], size: number, tag: string): EventInput[] {
  return Array.from({ length: size }, (_, i) => {
    const event: EventInput = {
      eventId: `${tag}-${i}`,
      type: TYPES[i % TYPES.length],
      customLinkId: linkIds[i % linkIds.length],
      occurredAt: new Date(Date.UTC(2026, 4, 1, 9, i % 50, i % 7)).toISOString(),
    };
    if (event.type === 'page_view') event.pageViewId = `pv-${i % 17}`;
    if (i % 3 === 0) event.visitorId = `v-${i % 5}`;
    if (i % 4 !== 0) event.sessionId = SESSIONS[i % SESSIONS.length];
    if (i % 11 === 0) event.bot = true;
    return event;
  });
}

/** `count` batches of `size` events drawn from the pool, so batches share ids. */
const batchesOf = (pool: EventInput[], count: number, size: number) =>
  Array.from({ length: count }, (_, b) =>
    Array.from({ length: size }, (_, i) => pool[(b * 37 + i * 13) % pool.length]),
  );

const asEngagementEvent = (e: EventInput): EngagementEvent => ({
  eventId: e.eventId,
  type: e.type,
  occurredAt: new Date(e.occurredAt),
  pageViewId: e.pageViewId ?? null,
  visitorId: e.visitorId ?? null,
  sessionId: e.sessionId ?? null,
  bot: e.bot === true,
  botReason: e.bot === true ? 'user_agent' : null,
});

describe('event batches committed together', () => {
  let t: TestApp;
  let db: Pool;
  beforeAll(async () => {
    // No workers of its own (another spec's would deliver its webhooks): it folds what it reads with foldNow.
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    db = new Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const post = (who: Tenant, events: EventInput[], key?: string) => {
    const req = request(t.server).post(EVENTS).set('x-api-key', who.key);
    return (key ? req.set('Idempotency-Key', key) : req).send({ events });
  };
  /** A link's engagement without `asOf` (the read's own instant when nothing waits to be folded). */
  const engagement = async (who: Tenant, id: string) => {
    const { asOf, ...rest } = (
      (await request(t.server).get(`/api/v1/custom-links/${id}`).set('x-api-key', who.key).expect(200)).body as Link
    ).engagement;
    expect(Date.parse(asOf)).toBeLessThanOrEqual(Date.now());
    return rest;
  };

  /** Fresh links (no engagement yet) in a new campaign. */
  async function linksInCampaign(who: Tenant, n: number): Promise<{ campaignId: string; linkIds: string[] }> {
    const campaignId = randomUUID();
    await db.query(`INSERT INTO campaigns (organization_id, id, name) VALUES ($1, $2, $3)`, [
      who.organizationId,
      campaignId,
      `c ${campaignId}`,
    ]);
    // insertLinks gives i % 4 = 0 (and i % 5 <> 0) no engagement at all.
    const linkIds = await insertLinks(
      db,
      who.organizationId,
      Array.from({ length: n }, (_, k) => ({ campaignId, i: 4 + 4 * (k + Math.floor(k / 4)) })),
    );
    return { campaignId, linkIds };
  }

  it('answer as the batches one after another would, and roll up exactly what one pass over the distinct events gives', async () => {
    const who = await t.createTenant();
    const { campaignId, linkIds } = await linksInCampaign(who, 5);
    const pool = eventPool(linkIds, 120, `g-${randomUUID()}`);
    const batches = batchesOf(pool, 12, 40);

    const answers = (await Promise.all(batches.map((batch) => post(who, batch).expect(202)))).map(
      (res) => res.body as EventsAnswer,
    );

    const distinct = new Set(batches.flat().map((e) => e.eventId));
    expect(answers.reduce((sum, a) => sum + a.accepted, 0)).toBe(distinct.size);
    answers.forEach((a, i) => expect(a.accepted + a.duplicates).toBe(batches[i].length));
    // Posted again, every event is a duplicate.
    expect(((await post(who, batches[0]).expect(202)).body as EventsAnswer).accepted).toBe(0);
    await foldNow(t.app, who.organizationId);
    const stored = pool.filter((e) => distinct.has(e.eventId));
    for (const id of linkIds) {
      expect(await engagement(who, id)).toEqual(
        engagementOf(storedFormOf(statsOf(stored.filter((e) => e.customLinkId === id).map(asEngagementEvent)))),
      );
    }
    const campaign = (
      await request(t.server)
        .get(`/api/v1/custom-link-campaigns/${campaignId}/engagement`)
        .set('x-api-key', who.key)
        .expect(200)
    ).body as Record<string, unknown>;
    expect(campaign).toEqual({
      ...(await oracleCampaignEngagement(db, who.organizationId, campaignId)),
      asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(campaign.loadCount).toBe(stored.filter((e) => e.type === 'page_view' && e.bot !== true).length);
  });

  it("commits each batch's Idempotency-Key answer with the group: a retry replays it", async () => {
    const who = await t.createTenant();
    const { linkIds } = await linksInCampaign(who, 2);
    const batches = batchesOf(eventPool(linkIds, 60, `k-${randomUUID()}`), 8, 20);
    const keys = batches.map(() => randomUUID());
    const first = await Promise.all(batches.map((batch, i) => post(who, batch, keys[i]).expect(202)));
    const again = await Promise.all(batches.map((batch, i) => post(who, batch, keys[i]).expect(202)));
    again.forEach((res, i) => {
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect(res.body).toEqual(first[i].body);
    });
    expect(first.reduce((sum, res) => sum + (res.body as EventsAnswer).accepted, 0)).toBe(
      new Set(batches.flat().map((e) => e.eventId)).size,
    );
  });

  it("an organization's engagement rows (no foreign key to organizations) are deleted with it, another's kept", async () => {
    const who = await t.createTenant();
    const other = await t.createTenant();
    const [mine, theirs] = [(await linksInCampaign(who, 1)).linkIds, (await linksInCampaign(other, 1)).linkIds];
    await post(who, eventPool(mine, 20, `d-${randomUUID()}`)).expect(202);
    await post(other, eventPool(theirs, 20, `d-${randomUUID()}`)).expect(202);
    // Folded first, so the distinct values and session references are there and no longer change.
    await Promise.all([foldNow(t.app, who.organizationId), foldNow(t.app, other.organizationId)]);
    // Every table OrganizationEngagement deletes from: rows per table.
    const tables = [
      'link_events',
      'link_distinct_values',
      'link_sessions',
      'link_event_ids',
      'link_event_batches',
      'engagement_folds',
      'link_event_hours',
      'event_facet_hours',
      'event_facet_days',
      'event_facet_versions',
    ];
    const rows = async (organizationId: string) =>
      Object.fromEntries(
        await Promise.all(
          tables.map(async (table) => {
            const { rows: counted } = await db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`,
              [organizationId],
            );
            return [table, counted[0].n] as const;
          }),
        ),
      );
    const held = await rows(who.organizationId);
    const empty = Object.fromEntries(tables.map((table) => [table, 0]));
    // A fold consumes its batches: every other table holds rows of the organization, so each DELETE is seen to work.
    expect(tables.filter((table) => held[table] === 0)).toEqual(['link_event_batches']);
    const otherRows = await rows(other.organizationId);

    expect(await t.app.get(OrganizationsService).delete(who.organizationId)).toBe(true);

    expect(await rows(who.organizationId)).toEqual(empty);
    expect(await rows(other.organizationId)).toEqual(otherRows);
    expect(await t.app.get(OrganizationsService).exists(who.organizationId)).toBe(false);
    expect(await t.app.get(OrganizationsService).delete(who.organizationId)).toBe(false);
  });
});
