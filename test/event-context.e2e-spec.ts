import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { Export, Link, LinkEvent, LinkEventPage } from './support/api-types';
import { createLink as createLinkThrough, slugOf } from './support/links';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * Issue 32 point 3: every event carries where it came from (country, device type, browser, OS,
 * referrer domain, UTM), from GET /l/{slug}'s request and from the fields of POST /api/v1/events;
 * shown on the link's timeline and in its exports; the client address is looked up and never kept.
 */
jest.setTimeout(120_000);

const LINKS = '/api/v1/custom-links';
const EXPERIENCE = 'https://experience.context.test/';
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
/** An address the bundled database places in the United States (Google's resolver). */
const US_ADDRESS = '8.8.8.8';

type Context = Pick<LinkEvent, 'country' | 'deviceType' | 'browser' | 'os' | 'referrerDomain' | 'utm'>;
const contextOf = (e: LinkEvent): Context => ({
  country: e.country,
  deviceType: e.deviceType,
  browser: e.browser,
  os: e.os,
  referrerDomain: e.referrerDomain,
  utm: e.utm,
});

describe('event context', () => {
  let t: TestApp;
  let untrusting: TestApp;
  let who: Tenant;

  beforeAll(async () => {
    const env = {
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
      EXPERIENCE_BASE_URL: EXPERIENCE,
      GEO_COUNTRY_HEADER: 'CF-IPCountry',
    };
    // This instance trusts the proxy on loopback (the test client); the other trusts none.
    t = await createTestApp({ ...env, APP_ROLE: 'all', TRUST_PROXY: 'loopback' });
    untrusting = await createTestApp({ ...env, APP_ROLE: 'api', TRUST_PROXY: 'false' });
    who = await t.createTenant();
  });
  afterAll(async () => {
    await untrusting.close();
    await t.close();
  });

  const get = (path: string) => request(t.server).get(path).set('x-api-key', who.key);
  const timeline = async (linkId: string) =>
    ((await get(`${LINKS}/${linkId}/events?include_bots=true&limit=100`).expect(200)).body as LinkEventPage).events;
  const eventNamed = (linkId: string, eventId: string) =>
    readUntil(
      () => timeline(linkId),
      (events) => events.some((e) => e.eventId === eventId),
    ).then((events) => events.find((e) => e.eventId === eventId) as LinkEvent);
  const opensOf = (linkId: string, count: number) =>
    readUntil(
      async () => (await timeline(linkId)).filter((e) => e.type === 'open'),
      (opens) => opens.length >= count,
    );
  const send = (events: object[]) =>
    request(t.server).post('/api/v1/events').set('x-api-key', who.key).send({ events });

  const createLink = () => createLinkThrough(t.server, who.key);

  describe('GET /l/{slug}', () => {
    it('records the country a trusted proxy reports, the device, the referrer domain and the UTM parameters', async () => {
      const link = await createLink();
      const res = await request(t.server)
        .get(`/l/${slugOf(link)}?utm_source=newsletter&utm_medium=email&utm_campaign=q4-launch&other=kept-out`)
        .set('User-Agent', CHROME_MAC)
        .set('Referer', 'https://www.linkedin.com/feed/?trk=abc')
        .set('CF-IPCountry', 'de')
        .expect(302);
      // The UTM parameters go on to the experience; nothing else of the query does.
      const location = new URL(res.headers.location as string);
      expect(Object.fromEntries(location.searchParams)).toEqual({
        cl: slugOf(link),
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'q4-launch',
      });
      const [open] = await opensOf(link.id, 1);
      expect(contextOf(open)).toEqual({
        country: 'DE',
        deviceType: 'desktop',
        browser: 'Chrome',
        os: 'macOS',
        referrerDomain: 'linkedin.com',
        utm: { source: 'newsletter', medium: 'email', campaign: 'q4-launch', term: null, content: null },
      });
    });

    it('looks the client address up when no country header is sent (X-Forwarded-For from a trusted proxy)', async () => {
      const link = await createLink();
      await request(t.server)
        .get(`/l/${slugOf(link)}`)
        .set('User-Agent', SAFARI_IPHONE)
        .set('X-Forwarded-For', US_ADDRESS)
        .expect(302);
      const [open] = await opensOf(link.id, 1);
      expect(contextOf(open)).toEqual({
        country: 'US',
        deviceType: 'mobile',
        browser: 'Safari',
        os: 'iOS',
        referrerDomain: null,
        utm: null,
      });
    });

    it('cuts a UTM value at 255 characters, also in the experience URL', async () => {
      const link = await createLink();
      const res = await request(t.server)
        .get(`/l/${slugOf(link)}?utm_term=${'t'.repeat(300)}`)
        .set('User-Agent', CHROME_MAC)
        .expect(302);
      expect(new URL(res.headers.location as string).searchParams.get('utm_term')).toBe('t'.repeat(255));
      const [open] = await opensOf(link.id, 1);
      expect(open.utm?.term).toBe('t'.repeat(255));
    });

    it('believes neither the country header nor X-Forwarded-For from a peer TRUST_PROXY does not trust', async () => {
      const link = await createLink();
      await request(untrusting.server)
        .get(`/l/${slugOf(link)}`)
        .set('User-Agent', CHROME_MAC)
        .set('CF-IPCountry', 'FR')
        .set('X-Forwarded-For', US_ADDRESS)
        .expect(302);
      // The peer is loopback, which no database places anywhere.
      const [open] = await opensOf(link.id, 1);
      expect(open.country).toBeNull();
      expect(open.browser).toBe('Chrome');
    });

    it('records a bot open with its context too', async () => {
      const link = await createLink();
      await request(t.server)
        .head(`/l/${slugOf(link)}?utm_source=scanner-test`)
        .set('User-Agent', CHROME_MAC)
        .set('CF-IPCountry', 'GB')
        .expect(302);
      const [open] = await opensOf(link.id, 1);
      expect({ bot: open.bot, country: open.country, source: open.utm?.source }).toEqual({
        bot: { isBot: true, reason: 'head_request' },
        country: 'GB',
        source: 'scanner-test',
      });
    });
  });

  describe('POST /api/v1/events', () => {
    let link: Link;
    beforeAll(async () => {
      link = await createLink();
    });

    it('stores an event’s country (over its clientIp), device, referrer domain and UTM', async () => {
      const event = {
        eventId: `ctx-${randomUUID()}`,
        type: 'page_view',
        customLinkId: link.id,
        occurredAt: '2026-11-20T10:00:00.000Z',
        userAgent: SAFARI_IPHONE,
        country: 'fr',
        clientIp: US_ADDRESS,
        referrer: 'https://news.ycombinator.com/item?id=1',
        utm: { source: 'hn', campaign: 'launch' },
      };
      expect((await send([event]).expect(202)).body).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(contextOf(await eventNamed(link.id, event.eventId))).toEqual({
        country: 'FR',
        deviceType: 'mobile',
        browser: 'Safari',
        os: 'iOS',
        referrerDomain: 'ycombinator.com',
        utm: { source: 'hn', medium: null, campaign: 'launch', term: null, content: null },
      });
    });

    it('looks up the clientIp when no country is given, and keeps no context it was not given', async () => {
      const located = { eventId: `ctx-${randomUUID()}`, clientIp: US_ADDRESS };
      const bare = { eventId: `ctx-${randomUUID()}` };
      const base = { type: 'page_view', customLinkId: link.id, occurredAt: '2026-11-20T11:00:00.000Z' };
      await send([
        { ...base, ...located },
        { ...base, ...bare },
      ]).expect(202);
      expect((await eventNamed(link.id, located.eventId)).country).toBe('US');
      expect(contextOf(await eventNamed(link.id, bare.eventId))).toEqual({
        country: null,
        deviceType: null,
        browser: null,
        os: null,
        referrerDomain: null,
        utm: null,
      });
    });

    it('reads the same context on the general validation path as on the fast one', async () => {
      // A non-ASCII visitorId takes the event off the fast parser (src/modules/engagement/dto/events.request.ts).
      const event = {
        eventId: `ctx-${randomUUID()}`,
        type: 'open',
        customLinkId: link.id,
        occurredAt: '2026-11-20T12:00:00.000Z',
        visitorId: 'visitör',
        userAgent: CHROME_MAC,
        clientIp: `::ffff:${US_ADDRESS}`,
        referrer: 'www.example.co.uk',
        utm: { medium: 'social', content: 'banner', unknownKey: 'dropped' },
      };
      await send([event]).expect(202);
      expect(contextOf(await eventNamed(link.id, event.eventId))).toEqual({
        country: 'US',
        deviceType: 'desktop',
        browser: 'Chrome',
        os: 'macOS',
        referrerDomain: 'example.co.uk',
        utm: { source: null, medium: 'social', campaign: null, term: null, content: 'banner' },
      });
    });

    it.each([
      ['country', { country: 'USA' }, ['country'], 'value_error'],
      ['country', { country: 7 }, ['country'], 'string_type'],
      ['clientIp', { clientIp: '999.1.1.1' }, ['clientIp'], 'value_error'],
      ['referrer', { referrer: `https://${'r'.repeat(2048)}.com` }, ['referrer'], 'string_too_long'],
      ['utm', { utm: 'newsletter' }, ['utm'], 'model_attributes_type'],
      ['utm.source', { utm: { source: 's'.repeat(256) } }, ['utm', 'source'], 'string_too_long'],
    ])('refuses a malformed %s with a 422 at its loc, storing nothing', async (_, fields, loc, type) => {
      const eventId = `ctx-bad-${randomUUID()}`;
      const res = await send([
        { eventId, type: 'open', customLinkId: link.id, occurredAt: '2026-11-20T13:00:00.000Z', ...fields },
      ]).expect(422);
      const issues = (res.body as { detail: { type: string; loc: (string | number)[] }[] }).detail;
      expect(issues.map((issue) => ({ type: issue.type, loc: issue.loc }))).toEqual([
        { type, loc: ['body', 'events', 0, ...loc] },
      ]);
      expect((await timeline(link.id)).some((e) => e.eventId === eventId)).toBe(false);
    });

    it('never stores the client address', async () => {
      const address = '2001:4860:4860::8844';
      const eventId = `ctx-${randomUUID()}`;
      await send([
        { eventId, type: 'open', customLinkId: link.id, occurredAt: '2026-11-20T14:00:00.000Z', clientIp: address },
      ]).expect(202);
      expect((await eventNamed(link.id, eventId)).country).toBe('US');
      const db = t.app.get(DataSource);
      const rows: { row: string }[] = await db.query(
        `SELECT to_jsonb(e)::text AS row FROM link_events e WHERE organization_id = $1`,
        [who.organizationId],
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((r) => r.row.includes(address) || r.row.includes(US_ADDRESS))).toEqual([]);
    });
  });

  it('exports a link’s events with their context', async () => {
    const link = await createLink();
    const eventId = `ctx-${randomUUID()}`;
    await send([
      {
        eventId,
        type: 'page_view',
        customLinkId: link.id,
        occurredAt: '2026-11-20T15:00:00.000Z',
        country: 'JP',
        userAgent: CHROME_MAC,
        utm: { source: 'export-test' },
      },
    ]).expect(202);
    await eventNamed(link.id, eventId);
    const created = await request(t.server)
      .post('/api/v1/exports')
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ resource: 'link_events', format: 'ndjson', filters: { link_id: link.id } })
      .expect(202);
    const done = await readUntil(
      async () => (await get(created.headers.location as string).expect(200)).body as Export,
      (e) => e.status === 'completed' || e.status === 'failed',
      60_000,
    );
    const file = await get(done.downloadUrl as string)
      .set('Accept-Encoding', 'identity')
      .buffer(true)
      .parse((r, finish) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => finish(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const lines = (file.body as Buffer)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LinkEvent);
    const exported = lines.find((e) => e.eventId === eventId);
    expect(exported && { country: exported.country, browser: exported.browser, utm: exported.utm }).toEqual({
      country: 'JP',
      browser: 'Chrome',
      utm: { source: 'export-test', medium: null, campaign: null, term: null, content: null },
    });
  });
});
