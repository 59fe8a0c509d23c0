import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Link, LinkEvent, LinkEventPage } from './support/api-types';
import { createLink as createLinkThrough, slugOf } from './support/links';
import { folded } from './support/fold';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * Issue 32 point 4: internal traffic and previews. An organization's setting (IP ranges, visitor
 * ids, User-Agent texts), its preview URLs and events sent with internal: true make opens and events
 * internal: stored with their reason, hidden from the timeline unless asked for, counted only in
 * the link's engagement.internalOpens, moving no stage, time, session reference or counter.
 */
jest.setTimeout(120_000);

const LINKS = '/api/v1/custom-links';
const SETTING = '/api/v1/settings/internal-traffic';
const EXPERIENCE = 'https://experience.internal.test/';
const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const OFFICE = '203.0.113.0/24';

describe('internal traffic', () => {
  let t: TestApp;
  let who: Tenant;

  beforeAll(async () => {
    t = await createTestApp({
      APP_ROLE: 'all',
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
      EXPERIENCE_BASE_URL: EXPERIENCE,
    });
    who = await t.createTenant();
  });
  afterAll(() => t.close());

  const get = (path: string, key = who.key) => request(t.server).get(path).set('x-api-key', key);
  const put = (body: object, key = who.key) => request(t.server).put(SETTING).set('x-api-key', key).send(body);
  const linkOf = async (id: string) => (await get(`${LINKS}/${id}`).expect(200)).body as Link;
  const timeline = async (linkId: string, query = '') =>
    ((await get(`${LINKS}/${linkId}/events?limit=100${query}`).expect(200)).body as LinkEventPage).events;
  /** Posts events and waits for their fold into the link's engagement (the timeline lists them at once). */
  const send = async (events: object[]) => {
    await request(t.server).post('/api/v1/events').set('x-api-key', who.key).send({ events }).expect(202);
    await folded(t.app, who.organizationId);
  };
  const open = (link: Link, from: string, query = '') =>
    request(t.server)
      .get(`/l/${slugOf(link)}${query}`)
      .set('User-Agent', CHROME)
      .set('X-Forwarded-For', from);
  /**
   * Every event of the link, internal ones included, once `count` are there (in the log) and folded
   * into the link's engagement.
   */
  const allEvents = async (linkId: string, count: number) => {
    const events = await readUntil(
      () => timeline(linkId, '&include_internal=true&include_bots=true'),
      (listed) => listed.length >= count,
    );
    await folded(t.app, who.organizationId);
    return events;
  };

  const createLink = () => createLinkThrough(t.server, who.key);

  describe('the setting', () => {
    it('is empty until set, then replaced whole by PUT, which answers it', async () => {
      const fresh = await t.createTenant();
      expect((await get(SETTING, fresh.key).expect(200)).body).toEqual({
        ipRanges: [],
        visitorIds: [],
        userAgentContains: [],
        updatedAt: null,
      });
      const first = await put(
        { ipRanges: ['198.51.100.0/24'], visitorIds: ['v-a'], userAgentContains: ['QA'] },
        fresh.key,
      ).expect(200);
      expect(first.body).toEqual({
        ipRanges: ['198.51.100.0/24'],
        visitorIds: ['v-a'],
        userAgentContains: ['QA'],
        updatedAt: expect.any(String),
      });
      await put({ ipRanges: [], visitorIds: ['v-b'], userAgentContains: [] }, fresh.key).expect(200);
      expect((await get(SETTING, fresh.key).expect(200)).body).toMatchObject({
        ipRanges: [],
        visitorIds: ['v-b'],
        userAgentContains: [],
      });
    });

    it('needs settings:read to read and settings:write to change', async () => {
      const reader = await t.createKey(who.organizationId, ['settings:read']);
      const other = await t.createKey(who.organizationId, ['custom_links:write', 'analytics:read']);
      await get(SETTING, reader).expect(200);
      await put({ ipRanges: [], visitorIds: [], userAgentContains: [] }, reader).expect(403);
      await get(SETTING, other).expect(403);
      await put({ ipRanges: [], visitorIds: [], userAgentContains: [] }, other).expect(403);
    });

    it.each([
      ['a bad CIDR', { ipRanges: ['10.0.0.0/8', '10.0.0.0/33'] }, ['ipRanges', 1], 'value_error'],
      [
        'too many ranges',
        { ipRanges: Array.from({ length: 101 }, (_, i) => `10.0.${i}.0/24`) },
        ['ipRanges'],
        'too_long',
      ],
      ['an empty visitor id', { visitorIds: [''] }, ['visitorIds', 0], 'string_too_short'],
      ['a missing list', { userAgentContains: undefined }, ['userAgentContains'], 'missing'],
    ])('refuses %s with a 422 at its loc and changes nothing', async (_, change, loc, type) => {
      const before = (await get(SETTING).expect(200)).body as object;
      const body = { ipRanges: [], visitorIds: [], userAgentContains: [], ...change };
      const res = await put(body).expect(422);
      const issues = (res.body as { detail: { type: string; loc: (string | number)[] }[] }).detail;
      expect(issues.map((issue) => ({ type: issue.type, loc: issue.loc }))).toEqual([{ type, loc: ['body', ...loc] }]);
      expect((await get(SETTING).expect(200)).body).toEqual(before);
    });
  });

  describe('opens and events', () => {
    let link: Link;

    beforeAll(async () => {
      link = await createLink();
      // An open before the setting exists is external: the setting does not rewrite history.
      await open(link, '203.0.113.9').expect(302);
      await allEvents(link.id, 1);
      await put({ ipRanges: [OFFICE], visitorIds: ['v-rep'], userAgentContains: ['AcmeQA'] }).expect(200);
    });

    it('an open from an internal range is stored as internal, hidden from the timeline, counted apart', async () => {
      await open(link, '203.0.113.77').expect(302);
      const events = await allEvents(link.id, 2);
      expect(events.map((e) => e.internal).sort((a, b) => Number(a.isInternal) - Number(b.isInternal))).toEqual([
        { isInternal: false, reason: null },
        { isInternal: true, reason: 'ip_range' },
      ]);
      expect((await timeline(link.id)).map((e) => e.internal.isInternal)).toEqual([false]);
      const engagement = (await linkOf(link.id)).engagement;
      expect({ internalOpens: engagement.internalOpens, botScannedOnly: engagement.botScannedOnly }).toEqual({
        internalOpens: 1,
        botScannedOnly: false,
      });
    });

    it('matches visitor ids and User-Agent texts on events, and honours internal: true', async () => {
      const other = await createLink();
      const sessionId = randomUUID();
      const base = { customLinkId: other.id, occurredAt: '2026-11-20T10:00:00.000Z' };
      await send([
        { ...base, eventId: `i-${randomUUID()}`, type: 'open', visitorId: 'v-rep' },
        { ...base, eventId: `i-${randomUUID()}`, type: 'open', userAgent: `${CHROME} acmeqa/1.0` },
        { ...base, eventId: `i-${randomUUID()}`, type: 'session_engaged', sessionId, internal: true },
        { ...base, eventId: `i-${randomUUID()}`, type: 'open', clientIp: '203.0.113.5' },
      ]);
      const reasons = (await allEvents(other.id, 4)).map((e) => e.internal.reason).sort();
      expect(reasons).toEqual(['declared', 'ip_range', 'user_agent', 'visitor_id']);
      // Nothing moved but the internal opens: no stage, no visitor, no session reference.
      const after = await linkOf(other.id);
      expect({
        stage: after.engagement.stage,
        openObserved: after.engagement.openObserved,
        internalOpens: after.engagement.internalOpens,
        uniqueVisitorCount: after.engagement.uniqueVisitorCount,
        engagedSessionCount: after.engagement.engagedSessionCount,
      }).toEqual({
        stage: 'not_opened',
        openObserved: false,
        internalOpens: 3,
        uniqueVisitorCount: 0,
        engagedSessionCount: 0,
      });
      const references = (await get(`${LINKS}/${other.id}/sessions`).expect(200)).body as { total: number };
      expect(references.total).toBe(0);
      // An external event still counts.
      await send([{ ...base, eventId: `e-${randomUUID()}`, type: 'open', clientIp: '192.0.2.1' }]);
      const external = await readUntil(
        () => linkOf(other.id),
        (l) => l.engagement.openObserved,
      );
      expect({ stage: external.engagement.stage, internalOpens: external.engagement.internalOpens }).toEqual({
        stage: 'opened',
        internalOpens: 3,
      });
    });

    it('shows internal events with include_internal only, each with its reason', async () => {
      const events: LinkEvent[] = await timeline(link.id, '&include_internal=true');
      expect(events.some((e) => e.internal.reason === 'ip_range')).toBe(true);
      expect((await timeline(link.id, '&include_internal=false')).every((e) => !e.internal.isInternal)).toBe(true);
      await get(`${LINKS}/${link.id}/events?include_internal=maybe`).expect(422);
    });
  });

  describe('preview URLs', () => {
    it('every link has one; it redirects with preview=1 and records an internal open', async () => {
      const link = await createLink();
      const preview = new URL(link.previewUrl);
      expect(preview.pathname).toBe(`/l/${slugOf(link)}`);
      const token = preview.searchParams.get('preview') as string;
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const res = await open(link, '192.0.2.10', `?preview=${token}`).expect(302);
      expect(new URL(res.headers.location as string).searchParams.get('preview')).toBe('1');
      const [event] = await allEvents(link.id, 1);
      expect(event.internal).toEqual({ isInternal: true, reason: 'preview' });
      expect((await linkOf(link.id)).engagement).toMatchObject({ stage: 'not_opened', internalOpens: 1 });
    });

    it('a token of another link, or a made-up one, opens as an ordinary external open', async () => {
      const [link, other] = await Promise.all([createLink(), createLink()]);
      const foreign = new URL(other.previewUrl).searchParams.get('preview') as string;
      for (const token of [foreign, 'A'.repeat(22), 'x']) {
        const res = await open(link, '192.0.2.11', `?preview=${token}`).expect(302);
        expect(new URL(res.headers.location as string).searchParams.has('preview')).toBe(false);
      }
      const events = await allEvents(link.id, 3);
      expect(events.map((e) => e.internal.isInternal)).toEqual([false, false, false]);
    });
  });
});
