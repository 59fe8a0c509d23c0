import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../src/common/time/clock';
import { LinkAccessEvents } from '../src/modules/custom-links';
import type { Link, LinkEventPage } from './support/api-types';
import { folded } from './support/fold';
import { createLinks, slugOf } from './support/links';
import { createTestApp, eventually, readUntil, type Tenant, type TestApp } from './support/test-app';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';

/**
 * Issue 36: links that expire and stop. expiresAt, maxHumanOpens and expiredRedirectUrl on creation,
 * PATCH and the set_access bulk action; the derived accessState; GET /l/{slug} answering an expired
 * or capped link with its expiredRedirectUrl or 410, recording the open as refused; the cap counting
 * human, external opens only, exactly under concurrency; the list's access_state filter. Time is the
 * test's: the app's Clock is replaced by one the test moves forward.
 */
jest.setTimeout(120_000);

const LINKS = '/api/v1/custom-links';
const EXPERIENCE = 'https://experience.access.test/';
const FALLBACK = 'https://example.com/offer-ended';
const GONE = { detail: 'This link is no longer available.' };
const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const HOUR = 3_600_000;

/** The app's clock: real time shifted by what the test moved it. */
const clock = { shift: 0, now: () => new Date(Date.now() + clock.shift) };

type Issue = { type: string; loc: (string | number)[]; msg: string };
const detailOf = (res: request.Response) => (res.body as { detail: Issue[] }).detail;

describe('link access (issue 36)', () => {
  let t: TestApp;
  let who: Tenant;
  let isolated: IsolatedServices;

  beforeAll(async () => {
    // Its webhooks go to a local receiver: a database and queues of its own, so that no other spec's
    // worker (which refuses private addresses) takes its deliveries (isolated-database.ts).
    isolated = await isolatedServices('link_access');
    t = await createTestApp(
      {
        ...isolated.env,
        APP_ROLE: 'all',
        TRUST_PROXY: 'loopback',
        RATE_LIMIT_PER_MINUTE: '100000',
        LINK_MUTATIONS_PER_MINUTE: '100000',
        LINK_OPENS_PER_CLIENT_PER_MINUTE: '100000',
        LINK_OPENS_PER_LINK_PER_MINUTE: '100000',
        EXPERIENCE_BASE_URL: EXPERIENCE,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_DISPATCH_INTERVAL_MS: '50',
      },
      { overrides: [{ provide: Clock, useValue: clock }] },
    );
    who = await t.createTenant();
  });
  afterAll(async () => {
    await t.close();
    await isolated.drop();
  });
  beforeEach(() => {
    clock.shift = 0;
  });

  const get = (path: string) => request(t.server).get(path).set('x-api-key', who.key);
  const linkOf = async (id: string) => (await get(`${LINKS}/${id}`).expect(200)).body as Link;
  const patch = (id: string, body: object) =>
    request(t.server).patch(`${LINKS}/${id}`).set('x-api-key', who.key).send(body);
  const bulk = (body: object) => request(t.server).post(`${LINKS}/actions`).set('x-api-key', who.key).send(body);
  const create = (links: object[]) =>
    request(t.server)
      .post(LINKS)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ links: links.map((link) => ({ shareThumbnailUrl: 'https://cdn.example.com/card.png', ...link })) });
  const make = async (fields: object = {}) =>
    (await createLinks(t.server, who.key, [{ firstName: 'Ada', ...fields }]))[0];
  const open = (link: Link, headers: Record<string, string> = {}, from = '192.0.2.10') => {
    const req = request(t.server)
      .get(`/l/${slugOf(link)}`)
      .set('User-Agent', CHROME)
      .set('X-Forwarded-For', from);
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    return req;
  };
  const toExperience = (res: request.Response) =>
    res.status === 302 && String(res.headers.location).startsWith(EXPERIENCE);
  const expectGone = (res: request.Response) => {
    expect(res.status).toBe(410);
    expect(res.body).toEqual(GONE);
  };
  const timeline = async (linkId: string, count: number) =>
    readUntil(
      async () =>
        (
          (await get(`${LINKS}/${linkId}/events?limit=100&include_bots=true&include_internal=true`).expect(200))
            .body as LinkEventPage
        ).events,
      (events) => events.length >= count,
    );

  describe('fields', () => {
    it('are taken on creation, returned on every link, and null by default with accessState open', async () => {
      const expiresAt = new Date(Date.now() + 2 * HOUR).toISOString();
      const [plain, limited] = await createLinks(t.server, who.key, [
        { firstName: 'Plain' },
        { firstName: 'Limited', expiresAt, maxHumanOpens: 3, expiredRedirectUrl: FALLBACK },
      ]);
      expect(plain).toMatchObject({
        expiresAt: null,
        maxHumanOpens: null,
        expiredRedirectUrl: null,
        accessState: 'open',
      });
      expect(limited).toMatchObject({ expiresAt, maxHumanOpens: 3, expiredRedirectUrl: FALLBACK, accessState: 'open' });
      const listed = (await get(`${LINKS}?limit=100`).expect(200)).body as { customLinks: Link[] };
      expect(listed.customLinks.find((link) => link.id === limited.id)).toMatchObject({ maxHumanOpens: 3 });
    });

    it.each([
      ['an expiresAt in the past', { expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt', 'value_error'],
      ['a text expiresAt', { expiresAt: 'soon' }, 'expiresAt', 'datetime_from_date_parsing'],
      ['a cap of 0', { maxHumanOpens: 0 }, 'maxHumanOpens', 'greater_than_equal'],
      ['a cap over 1,000,000', { maxHumanOpens: 1_000_001 }, 'maxHumanOpens', 'less_than_equal'],
      ['a fractional cap', { maxHumanOpens: 1.5 }, 'maxHumanOpens', 'int_from_float'],
      ['an http redirect', { expiredRedirectUrl: 'http://example.com/' }, 'expiredRedirectUrl', 'url_scheme'],
      ['a relative redirect', { expiredRedirectUrl: '/ended' }, 'expiredRedirectUrl', 'url_parsing'],
      [
        'credentials in the redirect',
        { expiredRedirectUrl: 'https://u:p@example.com/' },
        'expiredRedirectUrl',
        'value_error',
      ],
    ])('refuses %s on creation with a 422 at the item', async (_, fields, field, type) => {
      const res = await create([{ firstName: 'Ok' }, { firstName: 'Bad', ...fields }]).expect(422);
      expect(detailOf(res)).toHaveLength(1);
      expect(detailOf(res)[0]).toMatchObject({ type, loc: ['body', 'links', 1, field] });
    });

    it('change by PATCH without a thumbnail job, and refuse bad values at their field', async () => {
      const link = await make();
      const expiresAt = new Date(Date.now() + HOUR).toISOString();
      const res = await patch(link.id, { expiresAt, maxHumanOpens: 10, expiredRedirectUrl: FALLBACK }).expect(200);
      expect(res.body).toMatchObject({
        customLink: { expiresAt, maxHumanOpens: 10, expiredRedirectUrl: FALLBACK, accessState: 'open' },
        job: null,
      });
      const bad = await patch(link.id, { maxHumanOpens: -1, expiredRedirectUrl: 'ftp://example.com/' }).expect(422);
      expect(detailOf(bad).map((issue) => [issue.type, issue.loc])).toEqual([
        ['greater_than_equal', ['body', 'maxHumanOpens']],
        ['url_scheme', ['body', 'expiredRedirectUrl']],
      ]);
      await patch(link.id, { expiresAt: null, maxHumanOpens: null, expiredRedirectUrl: null }).expect(200);
      expect(await linkOf(link.id)).toMatchObject({ expiresAt: null, maxHumanOpens: null, expiredRedirectUrl: null });
    });
  });

  describe('expiry', () => {
    it('at expiresAt the link answers 410, or 302 to expiredRedirectUrl, bots and HEAD alike; the open is recorded but moves nothing', async () => {
      const expiresAt = new Date(Date.now() + HOUR).toISOString();
      const [gone, redirected] = await createLinks(t.server, who.key, [
        { firstName: 'Gone', expiresAt },
        { firstName: 'Redirected', expiresAt, expiredRedirectUrl: FALLBACK },
      ]);
      expect(toExperience(await open(gone))).toBe(true);

      clock.shift = HOUR + 1000;
      expect((await linkOf(gone.id)).accessState).toBe('expired');
      expectGone(await open(gone));
      expectGone(await open(gone, { 'User-Agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' }));
      expectGone(await open(gone, { 'Sec-Purpose': 'prefetch' }));
      expect(
        (
          await request(t.server)
            .head(`/l/${slugOf(gone)}`)
            .set('User-Agent', CHROME)
        ).status,
      ).toBe(410);
      const variants: Record<string, string>[] = [{}, { 'User-Agent': 'Googlebot/2.1' }, { Purpose: 'prefetch' }];
      for (const headers of variants) {
        const res = await open(redirected, headers).expect(302);
        expect(res.headers.location).toBe(FALLBACK);
      }

      // One open before expiry, four refused after it (the HEAD among them): on the timeline, folded into nothing.
      const events = await timeline(gone.id, 5);
      expect(events.map((event) => event.type).sort()).toEqual(['open', ...Array(4).fill('refused_open')].sort());
      await folded(t.app, who.organizationId);
      const after = (await linkOf(gone.id)).engagement;
      expect(after.botOpens).toEqual({ user_agent: 0, prefetch: 0, head_request: 0, scanner: 0 });
      expect(after.stage).toBe('opened');
      expect(after.lastOpenedAt).toBe(events.find((event) => event.type === 'open')?.occurredAt);
    });

    it('inactive keeps its own 410 text and wins over expired; clearing expiresAt reopens', async () => {
      const link = await make({ expiresAt: new Date(Date.now() + HOUR).toISOString() });
      clock.shift = 2 * HOUR;
      await patch(link.id, { active: false }).expect(200);
      expect((await linkOf(link.id)).accessState).toBe('inactive');
      const res = await open(link).expect(410);
      expect(res.body).toEqual({ detail: 'This link is no longer active.' });
      await patch(link.id, { active: true }).expect(200);
      expect((await linkOf(link.id)).accessState).toBe('expired');
      await patch(link.id, { expiresAt: null }).expect(200);
      expect((await linkOf(link.id)).accessState).toBe('open');
      expect(toExperience(await open(link))).toBe(true);
    });
  });

  describe('the cap', () => {
    it('lets at most maxHumanOpens of 50 simultaneous human opens through', async () => {
      const link = await make({ maxHumanOpens: 7 });
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => open(link, {}, `192.0.2.${i + 1}`).then((res) => res)),
      );
      expect(answers.filter(toExperience)).toHaveLength(7);
      for (const res of answers.filter((answer) => !toExperience(answer))) expectGone(res);
      expect((await linkOf(link.id)).accessState).toBe('capped');
    });

    describe('never counts', () => {
      let internalKey: string;
      beforeAll(async () => {
        internalKey = `AcmeQA-${randomUUID()}`;
        await request(t.server)
          .put('/api/v1/settings/internal-traffic')
          .set('x-api-key', who.key)
          .send({ ipRanges: ['198.51.100.0/24'], visitorIds: [], userAgentContains: [internalKey] })
          .expect(200);
      });

      const kinds: [string, (link: Link) => request.Test][] = [
        ['a bot User-Agent', (link) => open(link, { 'User-Agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' })],
        [
          'a HEAD request',
          (link) =>
            request(t.server)
              .head(`/l/${slugOf(link)}`)
              .set('User-Agent', CHROME),
        ],
        ['a prefetch', (link) => open(link, { 'Sec-Purpose': 'prefetch;prerender' })],
        [
          'a preview',
          (link) =>
            request(t.server)
              .get(new URL(link.previewUrl).pathname + new URL(link.previewUrl).search)
              .set('User-Agent', CHROME),
        ],
        ['internal traffic by User-Agent', (link) => open(link, { 'User-Agent': `${CHROME} ${internalKey}` })],
        ['internal traffic by address', (link) => open(link, {}, '198.51.100.7')],
      ];
      it.each(kinds)('%s', async (_, send) => {
        const link = await make({ maxHumanOpens: 1 });
        for (let i = 0; i < 3; i += 1) expect((await send(link)).status).toBe(302);
        expect((await linkOf(link.id)).accessState).toBe('open');
        expect(toExperience(await open(link))).toBe(true);
        expect((await linkOf(link.id)).accessState).toBe('capped');
        expectGone(await open(link));
        // Once capped, it answers this kind of request as it answers a person.
        expect((await send(link)).status).toBe(410);
      });
    });

    it('ranks expired over capped; raising or clearing the cap reopens', async () => {
      const link = await make({ maxHumanOpens: 1, expiresAt: new Date(Date.now() + HOUR).toISOString() });
      expect(toExperience(await open(link))).toBe(true);
      expect((await linkOf(link.id)).accessState).toBe('capped');
      clock.shift = 2 * HOUR;
      expect((await linkOf(link.id)).accessState).toBe('expired');
      await patch(link.id, { expiresAt: null }).expect(200);
      expect((await linkOf(link.id)).accessState).toBe('capped');
      await patch(link.id, { maxHumanOpens: 2 }).expect(200);
      expect((await linkOf(link.id)).accessState).toBe('open');
      expect(toExperience(await open(link))).toBe(true);
      expectGone(await open(link));
      await patch(link.id, { maxHumanOpens: null }).expect(200);
      expect((await linkOf(link.id)).accessState).toBe('open');
      expect(toExperience(await open(link))).toBe(true);
    });
  });

  describe('set_access', () => {
    it('sets any subset beside action, null clears, other fields stay', async () => {
      const [a, b] = await createLinks(t.server, who.key, [
        { firstName: 'A', expiredRedirectUrl: FALLBACK },
        { firstName: 'B', expiredRedirectUrl: FALLBACK },
      ]);
      const expiresAt = new Date(Date.now() + HOUR).toISOString();
      const res = await bulk({ action: 'set_access', customLinkIds: [a.id, b.id], expiresAt, maxHumanOpens: 5 }).expect(
        200,
      );
      expect(res.body).toEqual({ action: 'set_access', affectedCount: 2, customLinkIds: expect.any(Array) });
      for (const id of [a.id, b.id])
        expect(await linkOf(id)).toMatchObject({ expiresAt, maxHumanOpens: 5, expiredRedirectUrl: FALLBACK });
      await bulk({ action: 'set_access', customLinkIds: [a.id], expiredRedirectUrl: null, expiresAt: null }).expect(
        200,
      );
      expect(await linkOf(a.id)).toMatchObject({ expiresAt: null, maxHumanOpens: 5, expiredRedirectUrl: null });
      expect(await linkOf(b.id)).toMatchObject({ expiresAt, expiredRedirectUrl: FALLBACK });
    });

    it('validates each field at its loc, refuses more than 500 links and an empty change', async () => {
      const link = await make();
      const bad = await bulk({
        action: 'set_access',
        customLinkIds: [link.id],
        expiresAt: 'later',
        maxHumanOpens: 0,
        expiredRedirectUrl: 'http://example.com/',
      }).expect(422);
      expect(detailOf(bad).map((issue) => [issue.type, issue.loc])).toEqual([
        ['datetime_from_date_parsing', ['body', 'expiresAt']],
        ['greater_than_equal', ['body', 'maxHumanOpens']],
        ['url_scheme', ['body', 'expiredRedirectUrl']],
      ]);
      const many = Array.from({ length: 501 }, () => randomUUID());
      const long = await bulk({ action: 'set_access', customLinkIds: many, maxHumanOpens: 1 }).expect(422);
      expect(detailOf(long)[0]).toMatchObject({ type: 'too_long', loc: ['body', 'customLinkIds'] });
      const empty = await bulk({ action: 'set_access', customLinkIds: [link.id] }).expect(422);
      expect(detailOf(empty)[0]).toMatchObject({ type: 'value_error', loc: ['body'] });
      expect(await linkOf(link.id)).toMatchObject({ expiresAt: null, maxHumanOpens: null });
    });
  });

  describe('custom_link.expired', () => {
    let receiver: WebhookReceiver;
    let hooked: Tenant;
    beforeAll(async () => {
      receiver = await startReceiver();
      hooked = await t.createTenant();
      await request(t.server)
        .post('/api/v1/webhook-endpoints')
        .set('x-api-key', hooked.key)
        .send({ url: receiver.url, eventTypes: ['custom_link.expired'] })
        .expect(201);
    });
    afterAll(() => receiver.close());

    type Expired = { type: string; data: Link & { reason: string; closedAt: string } };
    const messagesOf = (linkId: string) =>
      receiver.received
        .map((received) => JSON.parse(received.body) as Expired)
        .filter((message) => message.data.id === linkId);
    /** Messages recorded for the link (the outbox: what will be sent, whatever the dispatcher did yet). */
    const recorded = async (linkId: string) => {
      const [row]: { count: number }[] = await t.app
        .get(DataSource)
        .query(
          `SELECT count(*)::int AS count FROM webhook_messages WHERE organization_id = $1 AND event_type = 'custom_link.expired' AND body::jsonb -> 'data' ->> 'id' = $2`,
          [hooked.organizationId, linkId],
        );
      return row.count;
    };
    /**
     * The link's messages once `count` arrived, and as many recorded. A first attempt that fails (a
     * receiver slow to answer on a loaded machine) is retried about 5 s later: the deadline allows it.
     */
    const delivered = async (linkId: string, count: number) => {
      await eventually(() => Promise.resolve(messagesOf(linkId).length >= count), 30_000);
      expect(await recorded(linkId)).toBe(count);
      return messagesOf(linkId);
    };
    const sweep = () => t.app.get(LinkAccessEvents).sweep();

    it('fires once when the link expires, found by the sweep however often it runs, and again after a reopening', async () => {
      const [link] = await createLinks(t.server, hooked.key, [
        { firstName: 'Expiring', expiresAt: new Date(Date.now() + HOUR).toISOString() },
      ]);
      await sweep();
      expect(await recorded(link.id)).toBe(0);
      clock.shift = HOUR + 1000;
      await Promise.all([sweep(), sweep(), sweep()]);
      await sweep();
      const [message] = await delivered(link.id, 1);
      expect(message).toMatchObject({
        type: 'custom_link.expired',
        data: { id: link.id, accessState: 'expired', reason: 'expired' },
      });
      expect(messagesOf(link.id)).toHaveLength(1);

      // Moved to another past time: still expired, no new message; reopened, then expired again: one more.
      await request(t.server)
        .patch(`${LINKS}/${link.id}`)
        .set('x-api-key', hooked.key)
        .send({ expiresAt: new Date(Date.now() + HOUR / 2).toISOString() })
        .expect(200);
      await sweep();
      expect(await recorded(link.id)).toBe(1);
      await request(t.server)
        .patch(`${LINKS}/${link.id}`)
        .set('x-api-key', hooked.key)
        .send({ expiresAt: new Date(Date.now() + 2 * HOUR).toISOString() })
        .expect(200);
      await sweep();
      clock.shift = 3 * HOUR;
      await sweep();
      expect(await delivered(link.id, 2)).toHaveLength(2);
    });

    it('fires once when an open takes the last human open', async () => {
      const [link] = await createLinks(t.server, hooked.key, [{ firstName: 'Capped', maxHumanOpens: 3 }]);
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => open(link, {}, `192.0.2.${100 + i}`)));
      expect(answers.filter(toExperience)).toHaveLength(3);
      await sweep();
      const messages = await delivered(link.id, 1);
      expect(messages).toHaveLength(1);
      expect(messages[0].data).toMatchObject({ id: link.id, accessState: 'capped', reason: 'capped' });
    });
  });

  describe('the list', () => {
    it('filters by access_state, as a comma list or repeated; an unknown state is a 422 enum', async () => {
      const filtered = await t.createTenant();
      const soon = new Date(Date.now() + HOUR).toISOString();
      const [opened, expiring, capped, inactive] = await createLinks(t.server, filtered.key, [
        { firstName: 'Open' },
        { firstName: 'Expiring', expiresAt: soon },
        { firstName: 'Capped', maxHumanOpens: 1 },
        { firstName: 'Inactive', active: false, expiresAt: soon },
      ]);
      expect(toExperience(await open(capped))).toBe(true);
      clock.shift = 2 * HOUR;
      const ids = async (query: string) =>
        (
          (await request(t.server).get(`${LINKS}?limit=100&${query}`).set('x-api-key', filtered.key).expect(200))
            .body as { customLinks: Link[]; total: number }
        ).customLinks
          .map((link) => link.id)
          .sort();
      expect(await ids('access_state=open')).toEqual([opened.id]);
      expect(await ids('access_state=expired')).toEqual([expiring.id]);
      expect(await ids('access_state=capped')).toEqual([capped.id]);
      expect(await ids('access_state=inactive')).toEqual([inactive.id]);
      expect(await ids('access_state=open,capped')).toEqual([opened.id, capped.id].sort());
      expect(await ids('access_state=expired&access_state=inactive')).toEqual([expiring.id, inactive.id].sort());
      const bad = await request(t.server)
        .get(`${LINKS}?access_state=closed`)
        .set('x-api-key', filtered.key)
        .expect(422);
      expect(detailOf(bad)[0]).toMatchObject({ type: 'enum', loc: ['query', 'access_state'] });
    });
  });
});

describe('set_access and the link-mutation limit (docs/api.md §8.3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all', LINK_MUTATIONS_PER_MINUTE: '2', RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  it('costs one link mutation; past the limit it is a 429 that changes nothing', async () => {
    const who = await t.createTenant();
    const [link] = await createLinks(t.server, who.key, [{ firstName: 'Limited' }]); // 1
    const bulk = (maxHumanOpens: number) =>
      request(t.server)
        .post(`${LINKS}/actions`)
        .set('x-api-key', who.key)
        .send({ action: 'set_access', customLinkIds: [link.id], maxHumanOpens });
    await bulk(5).expect(200); // 2
    const refused = await bulk(9);
    expect(refused.status).toBe(429);
    const after = (await request(t.server).get(`${LINKS}/${link.id}`).set('x-api-key', who.key).expect(200))
      .body as Link;
    expect(after.maxHumanOpens).toBe(5);
  });
});
