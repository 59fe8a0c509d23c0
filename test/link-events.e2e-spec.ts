import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Scope } from '../src/common/auth/scopes';
import { detailOf } from './support/api-responses';
import type { Link, LinkEventPage } from './support/api-types';
import { createLink as createLinkThrough } from './support/links';
import { folded } from './support/fold';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';

/**
 * A link's event timeline and bot reasons (issue 20 point 4): GET /api/v1/custom-links/{link_id}/events,
 * newest first, humans only unless include_bots, a type filter; every bot reason through the public
 * route and the events API; the link's engagement.botOpens. Opens run on the app's own workers.
 */
jest.setTimeout(120_000);

const LINKS = '/api/v1/custom-links';
const PUBLIC_BASE_URL = 'https://go.events.test';
const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const LINK_NOT_FOUND = { detail: "Custom Link not found for the key's organization." };
/** The context of an event sent with none (docs/api.md §6.3). */
const NO_CONTEXT = { country: null, deviceType: null, browser: null, os: null, referrerDomain: null, utm: null };
/** An external event's internal field (docs/api.md §6.8). */
const EXTERNAL = { internal: { isInternal: false, reason: null } };

/** Minute `n` of 2026-03-01 (UTC). */
const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 9, n)).toISOString();

describe('link event timeline', () => {
  let t: TestApp;
  let who: Tenant;

  beforeAll(async () => {
    t = await createTestApp({
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
      PUBLIC_BASE_URL,
    });
    who = await t.createTenant();
  });
  afterAll(() => t.close());

  const get = (key: string, path: string) => request(t.server).get(path).set('x-api-key', key);
  const list = async (linkId: string, query = '', key = who.key) =>
    (await get(key, `${LINKS}/${linkId}/events${query}`).expect(200)).body as LinkEventPage;
  /** Posts events and waits for their fold into the link's engagement (the timeline lists them at once). */
  const send = async (events: unknown[]) => {
    await request(t.server).post('/api/v1/events').set('x-api-key', who.key).send({ events }).expect(202);
    await folded(t.app, who.organizationId);
  };
  const linkOf = async (id: string) => (await get(who.key, `${LINKS}/${id}`).expect(200)).body as Link;

  const createLink = (owner: Tenant = who) => createLinkThrough(t.server, owner.key);

  describe('bot reasons through GET /l/{slug}', () => {
    let link: Link;
    const opens: [string, string | null, (slug: string) => request.Test][] = [
      ['a browser', null, (slug) => request(t.server).get(`/l/${slug}`).set('User-Agent', CHROME)],
      ['a bot User-Agent', 'user_agent', (slug) => request(t.server).get(`/l/${slug}`).set('User-Agent', GOOGLEBOT)],
      ['no User-Agent', 'user_agent', (slug) => request(t.server).get(`/l/${slug}`).unset('User-Agent')],
      [
        'Sec-Purpose: prefetch',
        'prefetch',
        (slug) =>
          request(t.server).get(`/l/${slug}`).set('User-Agent', CHROME).set('Sec-Purpose', 'prefetch;prerender'),
      ],
      [
        'Purpose: prefetch',
        'prefetch',
        (slug) => request(t.server).get(`/l/${slug}`).set('User-Agent', CHROME).set('Purpose', 'prefetch'),
      ],
      [
        'X-Moz: prefetch',
        'prefetch',
        (slug) => request(t.server).get(`/l/${slug}`).set('User-Agent', CHROME).set('X-Moz', 'prefetch'),
      ],
      ['HEAD', 'head_request', (slug) => request(t.server).head(`/l/${slug}`).set('User-Agent', CHROME)],
      [
        'a link scanner',
        'scanner',
        (slug) => request(t.server).get(`/l/${slug}`).set('User-Agent', 'Mimecast URL Protect'),
      ],
    ];

    beforeAll(async () => {
      link = await createLink();
      const slug = link.url.slice(`${PUBLIC_BASE_URL}/l/`.length);
      for (const [, , open] of opens) await open(slug).redirects(0).expect(302);
      await eventually(async () => (await list(link.id, '?include_bots=true')).total === opens.length, 30_000);
      await folded(t.app, who.organizationId);
    });

    it('each open is stored with its reason; HEAD is recorded as a bot open', async () => {
      const { events } = await list(link.id, '?include_bots=true');
      expect(events.map((e) => e.type)).toEqual(opens.map(() => 'open'));
      expect(events.map((e) => e.bot.reason).sort()).toEqual(opens.map(([, reason]) => reason).sort());
      for (const e of events) expect(e.bot.isBot).toBe(e.bot.reason !== null);
    });

    it('without include_bots only the human open is listed', async () => {
      const page = await list(link.id);
      expect(page.total).toBe(1);
      expect(page.events).toEqual([
        {
          eventId: expect.stringMatching(/^open-/),
          type: 'open',
          occurredAt: expect.any(String),
          visitorId: null,
          sessionId: null,
          pageViewId: null,
          bot: { isBot: false, reason: null },
          // From the browser's User-Agent; the test client's loopback address is in no country.
          ...NO_CONTEXT,
          ...EXTERNAL,
          deviceType: 'desktop',
          browser: 'Chrome',
          os: 'macOS',
        },
      ]);
      expect((await list(link.id, '?include_bots=false')).total).toBe(1);
    });

    it("the link's engagement counts bot opens by reason", async () => {
      const { engagement } = await linkOf(link.id);
      expect(engagement.botOpens).toEqual({ user_agent: 2, prefetch: 3, head_request: 1, scanner: 1 });
      expect(engagement).toMatchObject({ openObserved: true, botScannedOnly: false });
    });
  });

  describe('through POST /api/v1/events', () => {
    let link: Link;
    const sessionId = randomUUID();

    beforeAll(async () => {
      link = await createLink();
      await send([
        {
          eventId: 'h-1',
          type: 'page_view',
          customLinkId: link.id,
          occurredAt: at(1),
          pageViewId: 'pv-1',
          visitorId: 'v-1',
          userAgent: CHROME,
        },
        { eventId: 'h-2', type: 'session_started', customLinkId: link.id, occurredAt: at(2), sessionId },
        { eventId: 'h-3', type: 'open', customLinkId: link.id, occurredAt: at(3) },
        { eventId: 'h-4b', type: 'lead_submitted', customLinkId: link.id, occurredAt: at(4), sessionId },
        { eventId: 'h-4a', type: 'meeting_clicked', customLinkId: link.id, occurredAt: at(4), sessionId },
        { eventId: 'b-ua', type: 'open', customLinkId: link.id, occurredAt: at(5), userAgent: GOOGLEBOT },
        { eventId: 'b-flag', type: 'open', customLinkId: link.id, occurredAt: at(6), bot: true },
        {
          eventId: 'b-scan',
          type: 'open',
          customLinkId: link.id,
          occurredAt: at(7),
          userAgent: `${CHROME} Proofpoint`,
        },
        {
          eventId: 'b-load',
          type: 'page_view',
          customLinkId: link.id,
          occurredAt: at(8),
          pageViewId: 'pv-b',
          userAgent: GOOGLEBOT,
        },
      ]);
    });

    it('lists every field, newest first (ties by eventId, descending)', async () => {
      const page = await list(link.id);
      expect(page).toMatchObject({ total: 5, limit: 50, offset: 0, nextCursor: null });
      expect(page.events).toEqual([
        {
          eventId: 'h-4b',
          type: 'lead_submitted',
          occurredAt: at(4),
          visitorId: null,
          sessionId,
          pageViewId: null,
          bot: { isBot: false, reason: null },
          ...NO_CONTEXT,
          ...EXTERNAL,
        },
        {
          eventId: 'h-4a',
          type: 'meeting_clicked',
          occurredAt: at(4),
          visitorId: null,
          sessionId,
          pageViewId: null,
          bot: { isBot: false, reason: null },
          ...NO_CONTEXT,
          ...EXTERNAL,
        },
        {
          eventId: 'h-3',
          type: 'open',
          occurredAt: at(3),
          visitorId: null,
          sessionId: null,
          pageViewId: null,
          bot: { isBot: false, reason: null },
          ...NO_CONTEXT,
          ...EXTERNAL,
        },
        {
          eventId: 'h-2',
          type: 'session_started',
          occurredAt: at(2),
          visitorId: null,
          sessionId,
          pageViewId: null,
          bot: { isBot: false, reason: null },
          ...NO_CONTEXT,
          ...EXTERNAL,
        },
        {
          eventId: 'h-1',
          type: 'page_view',
          occurredAt: at(1),
          visitorId: 'v-1',
          sessionId: null,
          pageViewId: 'pv-1',
          bot: { isBot: false, reason: null },
          // Sent with the browser's User-Agent.
          ...NO_CONTEXT,
          ...EXTERNAL,
          deviceType: 'desktop',
          browser: 'Chrome',
          os: 'macOS',
        },
      ]);
    });

    it('bot events carry the reason of their User-Agent; bot: true alone is a user_agent bot', async () => {
      const bots = (await list(link.id, '?include_bots=true')).events.filter((e) => e.bot.isBot);
      expect(bots.map((e) => [e.eventId, e.bot.reason])).toEqual([
        ['b-load', 'user_agent'],
        ['b-scan', 'scanner'],
        ['b-flag', 'user_agent'],
        ['b-ua', 'user_agent'],
      ]);
      // Only opens count as bot opens.
      expect((await linkOf(link.id)).engagement.botOpens).toEqual({
        user_agent: 2,
        prefetch: 0,
        head_request: 0,
        scanner: 1,
      });
    });

    it('pages with limit and offset; nextCursor is null exactly on the last page', async () => {
      const first = await list(link.id, '?include_bots=true&limit=4');
      expect(first.events.map((e) => e.eventId)).toEqual(['b-load', 'b-scan', 'b-flag', 'b-ua']);
      expect(first).toMatchObject({ total: 9, limit: 4, offset: 0, nextCursor: expect.any(String) });
      const second = await list(link.id, '?include_bots=true&limit=4&offset=4');
      expect(second.events.map((e) => e.eventId)).toEqual(['h-4b', 'h-4a', 'h-3', 'h-2']);
      expect(second.nextCursor).toEqual(expect.any(String));
      expect(second.nextCursor).not.toBe(first.nextCursor);
      const last = await list(link.id, '?include_bots=true&limit=4&offset=8');
      expect(last.events.map((e) => e.eventId)).toEqual(['h-1']);
      expect(last.nextCursor).toBeNull();
    });

    it('filters by type (a comma list), with or without bots', async () => {
      expect((await list(link.id, '?type=open')).events.map((e) => e.eventId)).toEqual(['h-3']);
      expect((await list(link.id, '?type=open,page_view&include_bots=true')).events.map((e) => e.eventId)).toEqual([
        'b-load',
        'b-scan',
        'b-flag',
        'b-ua',
        'h-3',
        'h-1',
      ]);
      expect((await list(link.id, '?type=session_ended')).total).toBe(0);
    });

    it('422 for an unknown type or a non-boolean include_bots, at the parameter', async () => {
      const type = await get(who.key, `${LINKS}/${link.id}/events?type=open,click`).expect(422);
      expect(detailOf(type)).toEqual([expect.objectContaining({ loc: ['query', 'type'], type: 'enum' })]);
      const bots = await get(who.key, `${LINKS}/${link.id}/events?include_bots=maybe`).expect(422);
      expect(detailOf(bots)).toEqual([
        expect.objectContaining({ loc: ['query', 'include_bots'], type: 'bool_parsing' }),
      ]);
    });

    it('custom_links:read or custom_links:write; any other scope 403, no key 401', async () => {
      for (const scope of ['custom_links:read', 'custom_links:write'] as Scope[]) {
        expect((await list(link.id, '', await t.createKey(who.organizationId, [scope]))).total).toBe(5);
      }
      const other = await t.createKey(who.organizationId, ['sessions:read', 'events:write', 'analytics:read']);
      expect((await get(other, `${LINKS}/${link.id}/events`).expect(403)).body).toEqual({
        detail: 'API key does not include the required scope.',
      });
      expect((await request(t.server).get(`${LINKS}/${link.id}/events`).expect(401)).body).toEqual({
        detail: 'API key required or invalid.',
      });
    });

    it("404 with CONTRACT's text for an unknown link and for another organization's", async () => {
      const stranger = await t.createTenant();
      expect((await get(stranger.key, `${LINKS}/${link.id}/events`).expect(404)).body).toEqual(LINK_NOT_FOUND);
      expect((await get(who.key, `${LINKS}/${randomUUID()}/events`).expect(404)).body).toEqual(LINK_NOT_FOUND);
      // The same eventIds in another organization are its own events, never listed here.
      const theirs = await createLink(stranger);
      await request(t.server)
        .post('/api/v1/events')
        .set('x-api-key', stranger.key)
        .send({ events: [{ eventId: 'h-1', type: 'open', customLinkId: theirs.id, occurredAt: at(30) }] })
        .expect(202);
      expect((await list(theirs.id, '', stranger.key)).events.map((e) => [e.eventId, e.occurredAt])).toEqual([
        ['h-1', at(30)],
      ]);
      expect((await list(link.id)).events.find((e) => e.eventId === 'h-1')?.occurredAt).toBe(at(1));
    });
  });
});
