import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Scope } from '../src/common/auth/scopes';
import { detailOf } from './support/api-responses';
import type {
  Campaign,
  EventInput,
  EventsAnswer,
  Funnel,
  Job,
  JobEnvelope,
  JobItemPage,
  Link,
  LinkEngagement,
  LinkPage,
  SessionReferencePage,
} from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { folded } from './support/fold';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';

/**
 * Engagement tracking through HTTP: docs/api.md §2.2 (customLinkId, lifecycle), §2.7, §2.10, §2.11,
 * §3.1, §6. Jobs and opens run on the app's own workers (APP_ROLE all).
 */
jest.setTimeout(120_000);

const LINKS = '/api/v1/custom-links';
const JOBS = '/api/v1/custom-link-jobs';
const EVENTS = '/api/v1/events';
const PROVIDED = 'https://cdn.example.com/card.png';
const PUBLIC_BASE_URL = 'https://go.engagement.test';
const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';
const ENGAGEMENT_KEYS = [
  'stage',
  'openObserved',
  'botScannedOnly',
  'botOpens',
  'internalOpens',
  'pageViewCount',
  'loadCount',
  'uniqueVisitorCount',
  'persistentUniqueVisitorCount',
  'ephemeralPageViewCount',
  'loadsPerUniqueVisitor',
  'visitorCountMode',
  'firstOpenedAt',
  'lastOpenedAt',
  'sessionCount',
  'startedSessionCount',
  'engagedSessionCount',
  'leadSubmitted',
  'meetingClicked',
  'meetingBooked',
  'lastActivityAt',
  'lastActivityType',
  'firstStartedAt',
  'firstEngagedAt',
  'firstLeadSubmittedAt',
  'firstMeetingClickedAt',
  'firstMeetingBookedAt',
  'asOf',
].sort();
const CAMPAIGN_KEYS = [
  'campaignId',
  'generatedLinkCount',
  'activeLinkCount',
  'openedLinkCount',
  'startedLinkCount',
  'engagedLinkCount',
  'leadSubmittedLinkCount',
  'meetingClickedLinkCount',
  'meetingBookedLinkCount',
  'botScannedOnlyLinkCount',
  'pageViewCount',
  'loadCount',
  'uniqueVisitorCount',
  'persistentUniqueVisitorCount',
  'ephemeralPageViewCount',
  'sessionCount',
  'startedSessionCount',
  'engagedSessionCount',
  'loadsPerUniqueVisitor',
  'visitorCountMode',
  'firstOpenedAt',
  'lastOpenedAt',
  'lastActivityAt',
  'asOf',
].sort();
const REFERENCE_KEYS = [
  'sessionId',
  'stage',
  'openedAt',
  'startedAt',
  'engagedAt',
  'endedAt',
  'analysisAvailable',
].sort();

/** Minute `n` of 2026-03-01 (UTC). */
const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 9, n)).toISOString();
let seq = 0;
const eid = () => `evt-${Date.now().toString(36)}-${++seq}`;

describe('engagement tracking', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
      PUBLIC_BASE_URL,
    });
  });
  afterAll(() => t.close());

  const get = (who: Tenant | string, path: string) =>
    request(t.server)
      .get(path)
      .set('x-api-key', typeof who === 'string' ? who : who.key);
  const post = (who: Tenant | string, events: unknown[]) =>
    request(t.server)
      .post(EVENTS)
      .set('x-api-key', typeof who === 'string' ? who : who.key)
      .send({ events });
  /** Posts events and waits for the fold, so what follows reads them in the rollups. */
  const send = async (who: Tenant, events: EventInput[]) => {
    const answer = (await post(who, events).expect(202)).body as EventsAnswer;
    await folded(t.app, who.organizationId);
    return answer;
  };
  const link = async (who: Tenant, id: string): Promise<Link> =>
    (await get(who, `${LINKS}/${id}`).expect(200)).body as Link;
  /** A link's engagement without `asOf` (the read's own instant; test/event-fold.e2e-spec.ts tests asOf before and after a fold). */
  const engagement = async (who: Tenant, id: string) => {
    const { asOf, ...rest } = (await link(who, id)).engagement;
    expect(Date.parse(asOf)).toBeLessThanOrEqual(Date.now());
    return rest;
  };
  const slugOf = (l: Link) => l.url.slice(`${PUBLIC_BASE_URL}/l/`.length);

  /** Creates `n` links (optionally in a campaign by name) and waits for the job; returns them in order. */
  async function createLinks(who: Tenant, n: number, campaign?: string): Promise<Link[]> {
    const links = Array.from({ length: n }, (_, i) => ({
      firstName: `P${i}`,
      company: 'Co',
      externalId: `x-${i}`,
      shareThumbnailUrl: PROVIDED,
    }));
    const res = await request(t.server)
      .post(LINKS)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send(campaign ? { links, campaign: { name: campaign } } : { links })
      .expect(202);
    const jobId = (res.body as JobEnvelope).job.id;
    await eventually(
      async () =>
        ['completed', 'completed_with_errors', 'failed'].includes(
          ((await get(who, `${JOBS}/${jobId}`).expect(200)).body as Job).status,
        ),
      30000,
    );
    const items = ((await get(who, `${JOBS}/${jobId}/items?limit=200`).expect(200)).body as JobItemPage).items;
    return Promise.all(items.map((i) => link(who, i.customLinkId!)));
  }

  describe('POST /api/v1/events', () => {
    let who: Tenant;
    let links: Link[];
    beforeAll(async () => {
      who = await t.createTenant();
      links = await createLinks(who, 3);
    });

    it('401 without a key, 403 without events:write, 202 with only events:write', async () => {
      const event = { eventId: eid(), type: 'open', customLinkId: links[0].id, occurredAt: at(1) };
      const noKey = await request(t.server)
        .post(EVENTS)
        .send({ events: [event] });
      expect(noKey.status).toBe(401);
      expect(noKey.body).toEqual({ detail: 'API key required or invalid.' });
      const readOnly = await t.createKey(who.organizationId, [
        'custom_links:read',
        'custom_links:write',
        'analytics:read',
      ] as Scope[]);
      const forbidden = await post(readOnly, [event]);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual({ detail: 'API key does not include the required scope.' });
      expect((await engagement(who, links[0].id)).stage).toBe('not_opened');
      const writer = await t.createKey(who.organizationId, ['events:write'] as Scope[]);
      const ok = await post(writer, [event]);
      expect(ok.status).toBe(202);
      expect(ok.body).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      await folded(t.app, who.organizationId);
      expect(await engagement(who, links[0].id)).toMatchObject({ stage: 'opened', firstOpenedAt: at(1) });
    });

    describe('422 for a structurally invalid event, and nothing is stored', () => {
      const valid = (): EventInput => ({
        eventId: eid(),
        type: 'page_view',
        customLinkId: links[1].id,
        occurredAt: at(2),
        pageViewId: 'pv',
      });
      it.each([
        ['missing type', { type: undefined }, 'type'],
        ['an unknown type', { type: 'click' }, 'type'],
        ['an eventId of 129 characters', { eventId: 'e'.repeat(129) }, 'eventId'],
        ['an empty eventId', { eventId: '' }, 'eventId'],
        ['a bad occurredAt', { occurredAt: 'yesterday' }, 'occurredAt'],
        ['a missing occurredAt', { occurredAt: undefined }, 'occurredAt'],
        ['neither customLinkId nor slug', { customLinkId: undefined }, null],
        ['a non-uuid customLinkId', { customLinkId: 'not-a-uuid' }, 'customLinkId'],
        ['an ill-typed bot flag', { bot: 'yes' }, 'bot'],
      ])('%s', async (_label, override, field) => {
        const good = valid();
        const bad = { ...valid(), ...override };
        const before = await engagement(who, links[1].id);
        const res = await post(who, [good, bad]);
        expect(res.status).toBe(422);
        const detail = detailOf(res);
        expect(detail.length).toBeGreaterThanOrEqual(1);
        for (const entry of detail) expect(entry.loc.slice(0, 3)).toEqual(['body', 'events', 1]);
        if (field) expect(detail.map((d) => d.loc[3])).toContain(field);
        await folded(t.app, who.organizationId);
        expect(await engagement(who, links[1].id)).toEqual(before);
        // The valid event of the refused request was not stored: it is new now.
        expect(await send(who, [good])).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      });

      it('an eventId of exactly 128 characters is accepted', async () => {
        expect(await send(who, [{ ...valid(), eventId: `${eid()}-`.padEnd(128, 'x') }])).toEqual({
          accepted: 1,
          duplicates: 0,
          rejected: [],
        });
      });

      it('0 events and 1001 events are 422; 1000 events are accepted', async () => {
        expect((await post(who, [])).status).toBe(422);
        expect((await request(t.server).post(EVENTS).set('x-api-key', who.key).send({})).status).toBe(422);
        const many = (n: number) =>
          Array.from({ length: n }, (_, i): EventInput => ({
            eventId: `${eid()}-${i}`,
            type: 'session_ended',
            customLinkId: links[2].id,
            occurredAt: at(3),
          }));
        const before = await engagement(who, links[2].id);
        const tooMany = await post(who, many(1001));
        expect(tooMany.status).toBe(422);
        await folded(t.app, who.organizationId);
        expect(await engagement(who, links[2].id)).toEqual(before);
        expect(await send(who, many(1000))).toEqual({ accepted: 1000, duplicates: 0, rejected: [] });
        expect(await engagement(who, links[2].id)).toMatchObject({
          lastActivityType: 'session_ended',
          lastActivityAt: at(3),
          stage: 'not_opened',
        });
      });
    });

    it('resolves links by customLinkId (any case) or slug; unknown and foreign links are rejected as unknown_link', async () => {
      const other = await t.createTenant();
      const [foreign] = await createLinks(other, 1);
      const mine = (await createLinks(who, 1))[0];
      const res = await send(who, [
        {
          eventId: eid(),
          type: 'page_view',
          customLinkId: mine.id.toUpperCase(),
          occurredAt: at(1),
          pageViewId: 'a',
          visitorId: 'v',
        },
        { eventId: eid(), type: 'page_view', customLinkId: foreign.id, occurredAt: at(1) },
        { eventId: eid(), type: 'page_view', slug: slugOf(mine), occurredAt: at(2), pageViewId: 'b', visitorId: 'v' },
        { eventId: eid(), type: 'page_view', slug: slugOf(foreign), occurredAt: at(1) },
        { eventId: eid(), type: 'page_view', customLinkId: UNKNOWN_ID, occurredAt: at(1) },
        { eventId: eid(), type: 'page_view', slug: 'no-such-slug', occurredAt: at(1) },
      ]);
      expect(res).toEqual({
        accepted: 2,
        duplicates: 0,
        rejected: [
          { index: 1, reason: 'unknown_link' },
          { index: 3, reason: 'unknown_link' },
          { index: 4, reason: 'unknown_link' },
          { index: 5, reason: 'unknown_link' },
        ],
      });
      expect(await engagement(who, mine.id)).toMatchObject({
        loadCount: 2,
        pageViewCount: 2,
        persistentUniqueVisitorCount: 1,
        firstOpenedAt: at(1),
        lastOpenedAt: at(2),
      });
      expect(await engagement(other, foreign.id)).toMatchObject({
        stage: 'not_opened',
        loadCount: 0,
        openObserved: false,
      });
    });

    it('counts repeated eventIds as duplicates, across and within batches, and they change nothing', async () => {
      const [l] = await createLinks(who, 1);
      const a: EventInput = {
        eventId: eid(),
        type: 'page_view',
        customLinkId: l.id,
        occurredAt: at(5),
        pageViewId: 'p1',
        visitorId: 'v1',
      };
      const b: EventInput = {
        eventId: eid(),
        type: 'page_view',
        customLinkId: l.id,
        occurredAt: at(6),
        pageViewId: 'p2',
        visitorId: 'v2',
      };
      expect(await send(who, [a, a, b])).toEqual({ accepted: 2, duplicates: 1, rejected: [] });
      // The same eventId with other content, by slug, is still a duplicate.
      expect(
        await send(who, [a, { ...b, customLinkId: undefined, slug: slugOf(l), occurredAt: at(1), pageViewId: 'p3' }]),
      ).toEqual({ accepted: 0, duplicates: 2, rejected: [] });
      const c: EventInput = { eventId: eid(), type: 'open', customLinkId: l.id, occurredAt: at(9) };
      expect(await send(who, [c, { ...c, type: 'lead_submitted' }, a])).toEqual({
        accepted: 1,
        duplicates: 2,
        rejected: [],
      });
      expect(await engagement(who, l.id)).toMatchObject({
        loadCount: 2,
        pageViewCount: 2,
        persistentUniqueVisitorCount: 2,
        firstOpenedAt: at(5),
        lastOpenedAt: at(9),
        leadSubmitted: false,
        lastActivityType: 'open',
      });
    });

    it('an eventId is unique per organization: another organization may reuse it', async () => {
      const other = await t.createTenant();
      const [theirs] = await createLinks(other, 1);
      const id = eid();
      expect(await send(who, [{ eventId: id, type: 'open', customLinkId: links[2].id, occurredAt: at(4) }])).toEqual({
        accepted: 1,
        duplicates: 0,
        rejected: [],
      });
      expect(await send(other, [{ eventId: id, type: 'open', customLinkId: theirs.id, occurredAt: at(4) }])).toEqual({
        accepted: 1,
        duplicates: 0,
        rejected: [],
      });
      expect((await engagement(other, theirs.id)).stage).toBe('opened');
    });
  });

  describe('link rollup', () => {
    it('gives every field exactly after a scripted event set', async () => {
      const who = await t.createTenant();
      const [l] = await createLinks(who, 1);
      const id = l.id;
      const s1 = newSessionId();
      const s2 = newSessionId();
      const res = await send(who, [
        { eventId: eid(), type: 'open', customLinkId: id, occurredAt: at(0), userAgent: GOOGLEBOT },
        { eventId: eid(), type: 'open', customLinkId: id, occurredAt: at(1), userAgent: CHROME },
        {
          eventId: eid(),
          type: 'page_view',
          customLinkId: id,
          occurredAt: at(2),
          pageViewId: 'p1',
          visitorId: 'v1',
          sessionId: s1,
        },
        {
          eventId: eid(),
          type: 'page_view',
          customLinkId: id,
          occurredAt: at(3),
          pageViewId: 'p1',
          visitorId: 'v1',
          sessionId: s1,
        },
        { eventId: eid(), type: 'page_view', slug: slugOf(l), occurredAt: at(4), pageViewId: 'p2', sessionId: s2 },
        {
          eventId: eid(),
          type: 'page_view',
          customLinkId: id,
          occurredAt: at(5),
          pageViewId: 'p3',
          visitorId: 'v2',
          sessionId: s2,
        },
        {
          eventId: eid(),
          type: 'page_view',
          customLinkId: id,
          occurredAt: at(50),
          pageViewId: 'p9',
          visitorId: 'v9',
          bot: true,
        },
        {
          eventId: eid(),
          type: 'page_view',
          customLinkId: id,
          occurredAt: at(51),
          pageViewId: 'p8',
          visitorId: 'v8',
          userAgent: GOOGLEBOT,
        },
        { eventId: eid(), type: 'session_started', customLinkId: id, occurredAt: at(6), sessionId: s1 },
        { eventId: eid(), type: 'session_started', customLinkId: id, occurredAt: at(7), sessionId: s2 },
        { eventId: eid(), type: 'session_engaged', customLinkId: id, occurredAt: at(8), sessionId: s2 },
        { eventId: eid(), type: 'meeting_clicked', customLinkId: id, occurredAt: at(9), sessionId: s2 },
        { eventId: eid(), type: 'session_ended', customLinkId: id, occurredAt: at(10), sessionId: s1 },
      ]);
      expect(res).toEqual({ accepted: 13, duplicates: 0, rejected: [] });
      expect(Object.keys((await link(who, id)).engagement).sort()).toEqual(ENGAGEMENT_KEYS);
      const e = await engagement(who, id);
      expect(e).toEqual({
        stage: 'engaged',
        openObserved: true,
        botScannedOnly: false,
        // The Googlebot open; bot loads are no bot opens.
        botOpens: { user_agent: 1, prefetch: 0, head_request: 0, scanner: 0 },
        internalOpens: 0,
        pageViewCount: 3,
        loadCount: 4,
        uniqueVisitorCount: 3,
        persistentUniqueVisitorCount: 2,
        ephemeralPageViewCount: 1,
        loadsPerUniqueVisitor: 4 / 3,
        visitorCountMode: 'estimated',
        firstOpenedAt: at(1),
        lastOpenedAt: at(5),
        sessionCount: 2,
        startedSessionCount: 2,
        engagedSessionCount: 1,
        leadSubmitted: false,
        meetingClicked: true,
        meetingBooked: false,
        lastActivityAt: at(10),
        lastActivityType: 'session_ended',
        firstStartedAt: at(6),
        firstEngagedAt: at(8),
        firstLeadSubmittedAt: null,
        firstMeetingClickedAt: at(9),
        firstMeetingBookedAt: null,
      });
    });

    it('lead and meeting evidence set first{Opened,Started,Engaged}At to the earliest of events and conversions', async () => {
      const who = await t.createTenant();
      const [a, b] = await createLinks(who, 2);
      await send(who, [{ eventId: eid(), type: 'meeting_booked', customLinkId: a.id, occurredAt: at(20) }]);
      expect(await engagement(who, a.id)).toMatchObject({
        stage: 'engaged',
        openObserved: false,
        botScannedOnly: false,
        firstOpenedAt: at(20),
        lastOpenedAt: null,
        firstStartedAt: at(20),
        firstEngagedAt: at(20),
        meetingBooked: true,
        firstMeetingBookedAt: at(20),
        lastActivityType: 'meeting_booked',
      });
      // A later batch with earlier observed events moves the times back; an earlier lead moves them further.
      await send(who, [
        { eventId: eid(), type: 'open', customLinkId: a.id, occurredAt: at(10) },
        { eventId: eid(), type: 'session_started', customLinkId: a.id, occurredAt: at(25) },
      ]);
      expect(await engagement(who, a.id)).toMatchObject({
        stage: 'engaged',
        openObserved: true,
        firstOpenedAt: at(10),
        lastOpenedAt: at(10),
        firstStartedAt: at(20),
        firstEngagedAt: at(20),
        lastActivityAt: at(25),
        lastActivityType: 'session_started',
      });
      await send(who, [{ eventId: eid(), type: 'lead_submitted', customLinkId: a.id, occurredAt: at(15) }]);
      expect(await engagement(who, a.id)).toMatchObject({
        firstOpenedAt: at(10),
        firstStartedAt: at(15),
        firstEngagedAt: at(15),
        leadSubmitted: true,
        firstLeadSubmittedAt: at(15),
        lastActivityType: 'session_started',
      });
      // The same events in the other order give the same rollup.
      await send(who, [{ eventId: eid(), type: 'lead_submitted', customLinkId: b.id, occurredAt: at(15) }]);
      await send(who, [
        { eventId: eid(), type: 'open', customLinkId: b.id, occurredAt: at(10) },
        { eventId: eid(), type: 'session_started', customLinkId: b.id, occurredAt: at(25) },
      ]);
      await send(who, [{ eventId: eid(), type: 'meeting_booked', customLinkId: b.id, occurredAt: at(20) }]);
      expect(await engagement(who, b.id)).toEqual(await engagement(who, a.id));
    });

    it('lastActivityType at equal occurredAt goes to the greater eventId (byte order) in one batch or across batches', async () => {
      const who = await t.createTenant();
      const [one, two, three] = await createLinks(who, 3);
      const tag = eid();
      const pair = (id: string): EventInput[] => [
        { eventId: `${tag}-a`, type: 'open', customLinkId: id, occurredAt: at(30) },
        { eventId: `${tag}-B`, type: 'lead_submitted', customLinkId: id, occurredAt: at(30) },
      ];
      // eventIds are unique per organization: one link per tenant-wide id set, so use distinct prefixes per link.
      const forLink = (id: string, prefix: string) => pair(id).map((e) => ({ ...e, eventId: `${prefix}${e.eventId}` }));
      await send(who, forLink(one.id, '1'));
      const [x, y] = forLink(two.id, '2');
      await send(who, [y]);
      await send(who, [x]);
      const [p, q] = forLink(three.id, '3');
      await send(who, [p]);
      await send(who, [q]);
      for (const l of [one, two, three])
        expect(await engagement(who, l.id)).toMatchObject({ lastActivityAt: at(30), lastActivityType: 'open' });
    });

    it('lastActivityType tie-break agrees between one batch and separate batches for ids beyond the BMP', async () => {
      const who = await t.createTenant();
      const [one, two] = await createLinks(who, 2);
      const tag = eid();
      // UTF-8 byte order: "\u{1F600}" (F0 9F 98 80) > "\uE000" (EE 80 80); UTF-16 code units order them the other way.
      const events = (id: string, p: string): EventInput[] => [
        { eventId: `${p}${tag}\uE000`, type: 'open', customLinkId: id, occurredAt: at(40) },
        { eventId: `${p}${tag}\u{1F600}`, type: 'session_ended', customLinkId: id, occurredAt: at(40) },
      ];
      await send(who, events(one.id, '1'));
      const [a, b] = events(two.id, '2');
      await send(who, [a]);
      await send(who, [b]);
      const together = await engagement(who, one.id);
      const apart = await engagement(who, two.id);
      expect(apart.lastActivityType).toBe('session_ended');
      expect(together.lastActivityType).toBe(apart.lastActivityType);
    });

    it("moves a link's updatedAt when a batch changes its rollup, and only then (incremental sync)", async () => {
      const who = await t.createTenant();
      const [l] = await createLinks(who, 1);
      const updatedAt = async () => (await get(who, `${LINKS}/${l.id}`).expect(200)).body.updatedAt as string;
      await send(who, [
        { eventId: eid(), type: 'open', customLinkId: l.id, occurredAt: at(10) },
        { eventId: eid(), type: 'open', customLinkId: l.id, occurredAt: at(20) },
      ]);
      const opened = await updatedAt();
      // An open between the first and the last changes no figure; a bot page view counts nothing.
      expect(
        await send(who, [
          { eventId: eid(), type: 'open', customLinkId: l.id, occurredAt: at(15) },
          { eventId: eid(), type: 'page_view', customLinkId: l.id, occurredAt: at(12), bot: true },
        ]),
      ).toMatchObject({ accepted: 2 });
      expect(await updatedAt()).toBe(opened);
      await send(who, [{ eventId: eid(), type: 'page_view', customLinkId: l.id, occurredAt: at(5) }]);
      expect((await updatedAt()) > opened).toBe(true);
      expect(await engagement(who, l.id)).toMatchObject({
        loadCount: 1,
        firstOpenedAt: at(5),
        lastOpenedAt: at(20),
        lastActivityAt: at(20),
      });
    });
  });

  describe('GET /custom-links stage filter and last_activity_at sort', () => {
    it('filters by the exact stage and sorts by last activity with links without activity last', async () => {
      const who = await t.createTenant();
      const [n, o, s, e, b] = await createLinks(who, 5);
      await send(who, [
        { eventId: eid(), type: 'open', customLinkId: o.id, occurredAt: at(3) },
        { eventId: eid(), type: 'session_started', customLinkId: s.id, occurredAt: at(1) },
        { eventId: eid(), type: 'lead_submitted', customLinkId: e.id, occurredAt: at(2) },
        { eventId: eid(), type: 'open', customLinkId: b.id, occurredAt: at(4), bot: true },
      ]);
      const ids = async (query: string) =>
        ((await get(who, `${LINKS}?${query}`).expect(200)).body as LinkPage).customLinks.map((l) => l.id);
      expect(await ids('stage=not_opened')).toEqual(expect.arrayContaining([n.id, b.id]));
      expect((await ids('stage=not_opened')).sort()).toEqual([n.id, b.id].sort());
      expect(await ids('stage=opened')).toEqual([o.id]);
      expect(await ids('stage=started')).toEqual([s.id]);
      expect(await ids('stage=engaged')).toEqual([e.id]);
      const total = ((await get(who, `${LINKS}?stage=not_opened`).expect(200)).body as LinkPage).total;
      expect(total).toBe(2);
      expect((await get(who, `${LINKS}?stage=bounced`)).status).toBe(422);
      const desc = await ids('sort=last_activity_at&order=desc');
      expect(desc.slice(0, 3)).toEqual([o.id, e.id, s.id]);
      expect(desc.slice(3).sort()).toEqual([n.id, b.id].sort());
      const asc = await ids('sort=last_activity_at&order=asc');
      expect(asc.slice(0, 3)).toEqual([s.id, e.id, o.id]);
      expect(asc.slice(3).sort()).toEqual([n.id, b.id].sort());
    });
  });

  describe('GET /l/{slug} opens', () => {
    let who: Tenant;
    let links: Link[];
    beforeAll(async () => {
      who = await t.createTenant();
      links = await createLinks(who, 5);
    });

    it('a browser open is recorded as opened by the worker', async () => {
      const before = Date.now();
      await request(t.server)
        .get(`/l/${slugOf(links[0])}`)
        .set('User-Agent', CHROME)
        .redirects(0)
        .expect(302);
      const after = Date.now();
      let e: Omit<LinkEngagement, 'asOf'> | undefined;
      await eventually(async () => {
        e = await engagement(who, links[0].id);
        return e.stage === 'opened';
      });
      expect(e).toMatchObject({
        stage: 'opened',
        openObserved: true,
        botScannedOnly: false,
        loadCount: 0,
        lastActivityType: 'open',
      });
      const opened = Date.parse(e?.firstOpenedAt as string);
      expect(opened).toBeGreaterThanOrEqual(before - 1000);
      expect(opened).toBeLessThanOrEqual(after + 1000);
      expect(e?.lastOpenedAt).toBe(e?.firstOpenedAt);
      expect(e?.lastActivityAt).toBe(e?.firstOpenedAt);
    });

    it.each([
      ['a bot User-Agent', (slug: string) => request(t.server).get(`/l/${slug}`).set('User-Agent', GOOGLEBOT)],
      [
        'a mail scanner User-Agent',
        (slug: string) => request(t.server).get(`/l/${slug}`).set('User-Agent', `${CHROME} Proofpoint`),
      ],
      ['HEAD', (slug: string) => request(t.server).head(`/l/${slug}`).set('User-Agent', CHROME)],
      ['no User-Agent', (slug: string) => request(t.server).get(`/l/${slug}`).unset('User-Agent')],
    ])('%s counts only as a bot open (botScannedOnly)', async (label, open) => {
      const index = { 'a bot User-Agent': 1, 'a mail scanner User-Agent': 2, HEAD: 3, 'no User-Agent': 4 }[
        label
      ] as number;
      const l = links[index];
      const res = await open(slugOf(l)).redirects(0);
      expect(res.status).toBe(302);
      let e: Omit<LinkEngagement, 'asOf'> | undefined;
      await eventually(async () => {
        e = await engagement(who, l.id);
        return e.botScannedOnly;
      });
      expect(e).toMatchObject({
        stage: 'not_opened',
        openObserved: false,
        botScannedOnly: true,
        firstOpenedAt: null,
        lastOpenedAt: null,
        lastActivityAt: null,
        lastActivityType: null,
        loadCount: 0,
      });
      // A human open afterwards clears botScannedOnly.
      await request(t.server)
        .get(`/l/${slugOf(l)}`)
        .set('User-Agent', CHROME)
        .redirects(0)
        .expect(302);
      await eventually(async () => (await engagement(who, l.id)).stage === 'opened');
      expect(await engagement(who, l.id)).toMatchObject({ openObserved: true, botScannedOnly: false });
    });
  });

  describe('campaign engagement', () => {
    it('aggregates the links filed in the campaign with exact numbers; 404 for another organization', async () => {
      const who = await t.createTenant();
      const campaignName = `Camp ${eid()}`;
      const [c1, c2, c3, c4] = await createLinks(who, 4, campaignName);
      const [outside] = await createLinks(who, 1);
      const campaignId = c1.campaignId as string;
      expect(campaignId).toMatch(/^[0-9a-f-]{36}$/);
      await request(t.server).patch(`${LINKS}/${c4.id}`).set('x-api-key', who.key).send({ active: false }).expect(200);
      const s = () => newSessionId();
      const sA = s();
      await send(who, [
        // c1: opened via loads, persistent visitors only.
        {
          eventId: eid(),
          type: 'page_view',
          customLinkId: c1.id,
          occurredAt: at(2),
          pageViewId: 'a1',
          visitorId: 'va',
          sessionId: sA,
        },
        {
          eventId: eid(),
          type: 'page_view',
          customLinkId: c1.id,
          occurredAt: at(3),
          pageViewId: 'a2',
          visitorId: 'va',
          sessionId: sA,
        },
        { eventId: eid(), type: 'session_started', customLinkId: c1.id, occurredAt: at(4), sessionId: sA },
        // c2: ephemeral view, engaged, lead and booked meeting.
        { eventId: eid(), type: 'page_view', customLinkId: c2.id, occurredAt: at(1), pageViewId: 'b1' },
        { eventId: eid(), type: 'session_engaged', customLinkId: c2.id, occurredAt: at(6), sessionId: s() },
        { eventId: eid(), type: 'lead_submitted', customLinkId: c2.id, occurredAt: at(7) },
        { eventId: eid(), type: 'meeting_clicked', customLinkId: c2.id, occurredAt: at(8) },
        { eventId: eid(), type: 'meeting_booked', customLinkId: c2.id, occurredAt: at(9) },
        // c3: bot scanned only.
        { eventId: eid(), type: 'open', customLinkId: c3.id, occurredAt: at(5), userAgent: GOOGLEBOT },
        // c4 (inactive): a human open.
        { eventId: eid(), type: 'open', customLinkId: c4.id, occurredAt: at(12) },
        // outside the campaign: never counted.
        {
          eventId: eid(),
          type: 'page_view',
          customLinkId: outside.id,
          occurredAt: at(0),
          pageViewId: 'z',
          visitorId: 'vz',
        },
        { eventId: eid(), type: 'meeting_booked', customLinkId: outside.id, occurredAt: at(59) },
      ]);
      const res = await get(who, `/api/v1/custom-link-campaigns/${campaignId}/engagement`).expect(200);
      expect(Object.keys(res.body as object).sort()).toEqual(CAMPAIGN_KEYS);
      expect(res.body).toEqual({
        asOf: expect.any(String),
        campaignId,
        generatedLinkCount: 4,
        activeLinkCount: 3,
        openedLinkCount: 3,
        startedLinkCount: 2,
        engagedLinkCount: 1,
        leadSubmittedLinkCount: 1,
        meetingClickedLinkCount: 1,
        meetingBookedLinkCount: 1,
        botScannedOnlyLinkCount: 1,
        pageViewCount: 3,
        loadCount: 3,
        uniqueVisitorCount: 2,
        persistentUniqueVisitorCount: 1,
        ephemeralPageViewCount: 1,
        sessionCount: 2,
        startedSessionCount: 1,
        engagedSessionCount: 1,
        loadsPerUniqueVisitor: 1.5,
        visitorCountMode: 'estimated',
        firstOpenedAt: at(1),
        lastOpenedAt: at(12),
        lastActivityAt: at(12),
      });
      // Moving a link out of the campaign removes it from the aggregate.
      await request(t.server)
        .post(`${LINKS}/actions`)
        .set('x-api-key', who.key)
        .send({ action: 'move', customLinkIds: [c2.id], campaignId: null })
        .expect(200);
      const after = (await get(who, `/api/v1/custom-link-campaigns/${campaignId}/engagement`).expect(200))
        .body as Record<string, unknown>;
      expect(after).toMatchObject({
        generatedLinkCount: 3,
        engagedLinkCount: 0,
        leadSubmittedLinkCount: 0,
        meetingBookedLinkCount: 0,
        ephemeralPageViewCount: 0,
        visitorCountMode: 'identified',
        loadsPerUniqueVisitor: 2,
        firstOpenedAt: at(2),
      });

      const other = await t.createTenant();
      const foreign = await get(other, `/api/v1/custom-link-campaigns/${campaignId}/engagement`);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ detail: "Custom Link campaign not found for the key's organization." });
      expect((await get(who, `/api/v1/custom-link-campaigns/${UNKNOWN_ID}/engagement`)).status).toBe(404);
      expect((await get(who, `/api/v1/custom-link-campaigns/nope/engagement`)).status).toBe(422);
    });

    it('an empty campaign has zero counts, null loadsPerUniqueVisitor and identified mode', async () => {
      const who = await t.createTenant();
      const created = await request(t.server)
        .post('/api/v1/custom-link-campaigns')
        .set('x-api-key', who.key)
        .send({ name: `Empty ${eid()}` })
        .expect(201);
      const id = (created.body as Campaign).id;
      const res = (await get(who, `/api/v1/custom-link-campaigns/${id}/engagement`).expect(200)).body as Record<
        string,
        unknown
      >;
      expect(res).toMatchObject({
        campaignId: id,
        generatedLinkCount: 0,
        openedLinkCount: 0,
        loadCount: 0,
        uniqueVisitorCount: 0,
        loadsPerUniqueVisitor: null,
        visitorCountMode: 'identified',
        firstOpenedAt: null,
        lastActivityAt: null,
      });
    });
  });

  describe('link sessions and session detail', () => {
    it('lists docs/api.md §2.11 references with earliest times per kind; analysisAvailable only for analyzed production sessions', async () => {
      const who = await t.createTenant();
      const campaignName = `Sess ${eid()}`;
      const [l] = await createLinks(who, 1, campaignName);
      const [otherLink] = await createLinks(who, 1);
      const s1 = newSessionId();
      const s2 = newSessionId();
      const s3 = newSessionId();
      const sBot = newSessionId();
      await send(who, [
        { eventId: eid(), type: 'open', customLinkId: l.id, occurredAt: at(3), sessionId: s1 },
        { eventId: eid(), type: 'page_view', customLinkId: l.id, occurredAt: at(2), sessionId: s1, pageViewId: 'p' },
        { eventId: eid(), type: 'session_started', customLinkId: l.id, occurredAt: at(5), sessionId: s1 },
        { eventId: eid(), type: 'session_started', customLinkId: l.id, occurredAt: at(4), sessionId: s1 },
        { eventId: eid(), type: 'session_engaged', customLinkId: l.id, occurredAt: at(6), sessionId: s1 },
        { eventId: eid(), type: 'session_ended', customLinkId: l.id, occurredAt: at(9), sessionId: s1 },
        { eventId: eid(), type: 'session_ended', customLinkId: l.id, occurredAt: at(8), sessionId: s1 },
        { eventId: eid(), type: 'open', customLinkId: l.id, occurredAt: at(10), sessionId: s2.toUpperCase() },
        { eventId: eid(), type: 'lead_submitted', customLinkId: l.id, occurredAt: at(12), sessionId: s2 },
        { eventId: eid(), type: 'open', customLinkId: l.id, occurredAt: at(20), sessionId: s3 },
        { eventId: eid(), type: 'session_started', customLinkId: l.id, occurredAt: at(21), sessionId: sBot, bot: true },
      ]);
      const list = async () => (await get(who, `${LINKS}/${l.id}/sessions`).expect(200)).body as SessionReferencePage;
      const res = await list();
      expect(Object.keys(res).sort()).toEqual(['limit', 'offset', 'sessions', 'total']);
      expect(res).toMatchObject({ total: 3, limit: 50, offset: 0 });
      for (const ref of res.sessions) expect(Object.keys(ref).sort()).toEqual(REFERENCE_KEYS);
      const byId = new Map(res.sessions.map((r) => [r.sessionId, r]));
      expect(byId.get(s1)).toEqual({
        sessionId: s1,
        stage: 'engaged',
        openedAt: at(2),
        startedAt: at(4),
        engagedAt: at(6),
        endedAt: at(8),
        analysisAvailable: false,
      });
      expect(byId.get(s2)).toEqual({
        sessionId: s2,
        stage: 'engaged',
        openedAt: at(10),
        startedAt: at(12),
        engagedAt: at(12),
        endedAt: null,
        analysisAvailable: false,
      });
      expect(byId.get(s3)).toEqual({
        sessionId: s3,
        stage: 'opened',
        openedAt: at(20),
        startedAt: null,
        engagedAt: null,
        endedAt: null,
        analysisAvailable: false,
      });
      expect(byId.has(sBot)).toBe(false);
      const paged = (await get(who, `${LINKS}/${l.id}/sessions?limit=2&offset=2`).expect(200))
        .body as SessionReferencePage;
      expect(paged.total).toBe(3);
      expect(paged.sessions).toHaveLength(1);
      expect(
        ((await get(who, `${LINKS}/${otherLink.id}/sessions`).expect(200)).body as SessionReferencePage).total,
      ).toBe(0);

      // analysisAvailable: production + analyzed only.
      await ingest(t.server, who.key, s1, sessionBody({ email: 'one@acme.com' })).expect(200);
      await ingest(t.server, who.key, s2, sessionBody({ email: 'two@acme.com', environment: 'staging' })).expect(200);
      await ingest(t.server, who.key, s3, sessionBody({ email: 'three@acme.com', analysisStatus: 'pending' })).expect(
        200,
      );
      const flags = new Map((await list()).sessions.map((r) => [r.sessionId, r.analysisAvailable]));
      expect(Object.fromEntries(flags)).toEqual({ [s1]: true, [s2]: false, [s3]: false });
      await ingest(t.server, who.key, s3, sessionBody({ email: 'three@acme.com' })).expect(200);
      expect((await list()).sessions.find((r) => r.sessionId === s3)?.analysisAvailable).toBe(true);

      // Session detail: customLinkId, campaign and lifecycle derived from the events.
      const detail = (await get(who, `/api/v1/sessions/${s1}`).expect(200)).body as Record<string, unknown>;
      expect(detail.customLinkId).toBe(l.id);
      expect(detail.customLinkCampaignId).toBe(l.campaignId);
      expect(l.campaignId).toMatch(/^[0-9a-f-]{36}$/);
      expect(detail.lifecycle).toEqual({
        stage: 'engaged',
        events: [
          { eventType: 'opened', observedAt: at(2) },
          { eventType: 'started', observedAt: at(4) },
          { eventType: 'engaged', observedAt: at(6) },
          { eventType: 'ended', observedAt: at(8) },
        ],
      });
      const d3 = (await get(who, `/api/v1/sessions/${s3}`).expect(200)).body as Record<string, unknown>;
      expect(d3.lifecycle).toEqual({ stage: 'opened', events: [{ eventType: 'opened', observedAt: at(20) }] });

      // Other organizations see neither the references nor the link.
      const other = await t.createTenant();
      expect((await get(other, `${LINKS}/${l.id}/sessions`)).status).toBe(404);
    });

    it('lead evidence in a session gives lifecycle stage engaged; a session without link events has null link fields', async () => {
      const who = await t.createTenant();
      const [l] = await createLinks(who, 1);
      const sLead = newSessionId();
      const sPlain = newSessionId();
      await send(who, [
        { eventId: eid(), type: 'lead_submitted', customLinkId: l.id, occurredAt: at(15), sessionId: sLead },
        { eventId: eid(), type: 'meeting_booked', customLinkId: l.id, occurredAt: at(17), sessionId: sLead },
        { eventId: eid(), type: 'open', customLinkId: l.id, occurredAt: at(1), sessionId: sLead, bot: true },
      ]);
      await ingest(t.server, who.key, sLead, sessionBody({ email: 'lead@acme.com' })).expect(200);
      await ingest(t.server, who.key, sPlain, sessionBody({ email: 'plain@acme.com' })).expect(200);
      const lead = (await get(who, `/api/v1/sessions/${sLead}`).expect(200)).body as Record<string, unknown>;
      expect(lead).toMatchObject({ customLinkId: l.id, customLinkCampaignId: null });
      expect(lead.lifecycle).toEqual({
        stage: 'engaged',
        events: [
          { eventType: 'lead_submitted', observedAt: at(15) },
          { eventType: 'meeting_booked', observedAt: at(17) },
        ],
      });
      const plain = (await get(who, `/api/v1/sessions/${sPlain}`).expect(200)).body as Record<string, unknown>;
      expect(plain).toMatchObject({ customLinkId: null, customLinkCampaignId: null, lifecycle: null });
    });
  });

  describe('GET /api/v1/analytics/funnel', () => {
    it('counts links and their analyzed sessions with exact rates, filtered by from/to and campaign_id', async () => {
      const who = await t.createTenant();
      const early = await createLinks(who, 2);
      const cutoff = new Date(Date.now() + 5).toISOString();
      await eventually(async () => Date.now() > Date.parse(cutoff) + 5);
      const campaignLinks = await createLinks(who, 3, `Funnel ${eid()}`);
      const later = await createLinks(who, 1);
      const campaignId = campaignLinks[0].campaignId as string;
      const [e0, e1] = early;
      const [c0, c1, c2] = campaignLinks;
      const [x0] = later;
      const sess = Array.from({ length: 5 }, () => newSessionId());
      await send(who, [
        { eventId: eid(), type: 'open', customLinkId: e0.id, occurredAt: at(1), sessionId: sess[0] },
        { eventId: eid(), type: 'open', customLinkId: e1.id, occurredAt: at(1), bot: true },
        { eventId: eid(), type: 'page_view', customLinkId: c0.id, occurredAt: at(1), sessionId: sess[1] },
        { eventId: eid(), type: 'session_started', customLinkId: c1.id, occurredAt: at(2), sessionId: sess[2] },
        { eventId: eid(), type: 'meeting_booked', customLinkId: c2.id, occurredAt: at(3), sessionId: sess[3] },
        { eventId: eid(), type: 'lead_submitted', customLinkId: c2.id, occurredAt: at(2) },
        { eventId: eid(), type: 'meeting_clicked', customLinkId: x0.id, occurredAt: at(2), sessionId: sess[4] },
      ]);
      // Sessions: 0 qualified+booked+high; 1 unqualified/not booked/low; 2 staging (never counted); 3 qualified/not booked/high; 4 ingested with customLinkId only.
      await ingest(t.server, who.key, sess[0], sessionBody({ email: 'f0@acme.com' })).expect(200);
      await ingest(
        t.server,
        who.key,
        sess[1],
        sessionBody({
          email: 'f1@acme.com',
          qualificationStatus: 'unqualified',
          bookedStatus: 'not_booked',
          buyingIntent: 'low',
        }),
      ).expect(200);
      await ingest(t.server, who.key, sess[2], sessionBody({ email: 'f2@acme.com', environment: 'staging' })).expect(
        200,
      );
      await ingest(
        t.server,
        who.key,
        sess[3],
        sessionBody({ email: 'f3@acme.com', bookedStatus: 'not_booked' }),
      ).expect(200);
      await ingest(
        t.server,
        who.key,
        sess[4],
        sessionBody({ email: 'f4@acme.com', qualificationStatus: 'unqualified', buyingIntent: 'none' }),
      ).expect(200);
      const unlinked = newSessionId();
      await ingest(t.server, who.key, unlinked, sessionBody({ email: 'f5@acme.com' })).expect(200);

      const funnel = async (query = '') =>
        (await get(who, `/api/v1/analytics/funnel${query}`).expect(200)).body as Record<string, unknown>;
      const all = await funnel();
      expect(all).toEqual({
        generatedLinkCount: 6,
        openedLinkCount: 5,
        startedLinkCount: 3,
        engagedLinkCount: 2,
        leadSubmittedLinkCount: 1,
        meetingClickedLinkCount: 1,
        meetingBookedLinkCount: 1,
        botScannedOnlyLinkCount: 1,
        rates: { opened: 5 / 6, started: 3 / 6, engaged: 2 / 6, leadSubmitted: 1 / 6, meetingBooked: 1 / 6 },
        sessions: { total: 4, qualified: 2, booked: 2, highIntent: 2 },
      });
      expect(await funnel(`?campaign_id=${campaignId}`)).toEqual({
        generatedLinkCount: 3,
        openedLinkCount: 3,
        startedLinkCount: 2,
        engagedLinkCount: 1,
        leadSubmittedLinkCount: 1,
        meetingClickedLinkCount: 0,
        meetingBookedLinkCount: 1,
        botScannedOnlyLinkCount: 0,
        rates: { opened: 1, started: 2 / 3, engaged: 1 / 3, leadSubmitted: 1 / 3, meetingBooked: 1 / 3 },
        sessions: { total: 2, qualified: 1, booked: 0, highIntent: 1 },
      });
      expect(await funnel(`?to=${encodeURIComponent(cutoff)}`)).toMatchObject({
        generatedLinkCount: 2,
        openedLinkCount: 1,
        botScannedOnlyLinkCount: 1,
        rates: { opened: 0.5, started: 0, engaged: 0, leadSubmitted: 0, meetingBooked: 0 },
        sessions: { total: 1, qualified: 1, booked: 1, highIntent: 1 },
      });
      expect(await funnel(`?from=${encodeURIComponent(cutoff)}`)).toMatchObject({
        generatedLinkCount: 4,
        openedLinkCount: 4,
        sessions: { total: 3, qualified: 1, booked: 1, highIntent: 1 },
      });
      expect(await funnel(`?from=2030-01-01T00:00:00Z`)).toEqual({
        generatedLinkCount: 0,
        openedLinkCount: 0,
        startedLinkCount: 0,
        engagedLinkCount: 0,
        leadSubmittedLinkCount: 0,
        meetingClickedLinkCount: 0,
        meetingBookedLinkCount: 0,
        botScannedOnlyLinkCount: 0,
        rates: { opened: 0, started: 0, engaged: 0, leadSubmitted: 0, meetingBooked: 0 },
        sessions: { total: 0, qualified: 0, booked: 0, highIntent: 0 },
      });
      expect((await get(who, '/api/v1/analytics/funnel?from=soon')).status).toBe(422);
      expect((await get(who, '/api/v1/analytics/funnel?campaign_id=x')).status).toBe(422);

      const noScope = await t.createKey(who.organizationId, ['custom_links:read', 'sessions:read'] as Scope[]);
      expect((await get(noScope, '/api/v1/analytics/funnel')).status).toBe(403);
      expect((await request(t.server).get('/api/v1/analytics/funnel')).status).toBe(401);
      const analyst = await t.createKey(who.organizationId, ['analytics:read'] as Scope[]);
      expect((await get(analyst, '/api/v1/analytics/funnel').expect(200)).body).toEqual(all);

      const other = await t.createTenant();
      expect(((await get(other, '/api/v1/analytics/funnel').expect(200)).body as Funnel).generatedLinkCount).toBe(0);
    });
  });
});
