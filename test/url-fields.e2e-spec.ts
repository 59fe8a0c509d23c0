import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { detailOf } from './support/api-responses';
import type { Job, JobEnvelope, JobItemPage, JobPage, Link, LinkUpdate, SessionDetail } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { sameLink } from './support/fold';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * URL fields accept only absolute http(s) URLs (issue 17, docs/api.md §7.3): shareThumbnailUrl and
 * prospectLogoUrl on link creation (per item) and update, and the session's tracking.referrerUrl and
 * tracking.landingPageUrl on ingestion. Anything else is a 422 `url_scheme` (another scheme) or
 * `url_parsing` (no URL at all) at the field's loc, and nothing is stored.
 */

const LINKS = '/api/v1/custom-links';
const PROVIDED = 'https://cdn.example.com/card.png';
const SCHEME = {
  type: 'url_scheme',
  msg: "URL scheme should be 'http' or 'https'",
  ctx: { expected_schemes: "'http' or 'https'" },
};
const RELATIVE = {
  type: 'url_parsing',
  msg: 'Input should be a valid URL, relative URL without a base',
  ctx: { error: 'relative URL without a base' },
};
const HOSTILE = [
  'javascript:alert(document.cookie)',
  'JAVASCRIPT:alert(1)',
  'java\nscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'ftp://example.com/logo.png',
];

describe('URL fields', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all', RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  const create = (who: Tenant, links: Record<string, unknown>[]) =>
    request(t.server).post(LINKS).set('x-api-key', who.key).set('Idempotency-Key', randomUUID()).send({ links });
  const jobsOf = async (who: Tenant) =>
    ((await request(t.server).get('/api/v1/custom-link-jobs').set('x-api-key', who.key).expect(200)).body as JobPage)
      .total;
  const getLink = async (who: Tenant, id: string) =>
    (await request(t.server).get(`${LINKS}/${id}`).set('x-api-key', who.key).expect(200)).body as Link;
  const createdLink = async (who: Tenant, fields: Record<string, unknown>): Promise<Link> => {
    const job = ((await create(who, [{ firstName: 'Ada', ...fields }]).expect(202)).body as JobEnvelope).job;
    const read = async () =>
      (await request(t.server).get(`/api/v1/custom-link-jobs/${job.id}`).set('x-api-key', who.key).expect(200))
        .body as Job;
    expect(
      (await readUntil(read, (polled) => polled.status !== 'queued' && polled.status !== 'processing')).status,
    ).toBe('completed');
    const items = (
      await request(t.server).get(`/api/v1/custom-link-jobs/${job.id}/items`).set('x-api-key', who.key).expect(200)
    ).body as JobItemPage;
    return getLink(who, items.items[0].customLinkId!);
  };

  describe('link creation', () => {
    it('refuses a hostile scheme in any item with url_scheme at that item and field; nothing is created', async () => {
      const who = await t.createTenant();
      for (const url of HOSTILE) {
        const links = [
          { firstName: 'Fine', shareThumbnailUrl: PROVIDED },
          { firstName: 'Also fine', prospectLogoUrl: 'https://cdn.example.com/logo.png' },
          { firstName: 'Bad logo', prospectLogoUrl: url },
          { firstName: 'Bad card', shareThumbnailUrl: url },
        ];
        const res = await create(who, links).expect(422);
        expect(detailOf(res)).toEqual([
          { ...SCHEME, loc: ['body', 'links', 2, 'prospectLogoUrl'], input: url },
          { ...SCHEME, loc: ['body', 'links', 3, 'shareThumbnailUrl'], input: url },
        ]);
      }
      expect(await jobsOf(who)).toBe(0);
    });

    it('refuses text that is no absolute URL with url_parsing and the reason', async () => {
      const who = await t.createTenant();
      const cases: [string, Record<string, unknown>][] = [
        ['not a url', RELATIVE],
        ['//cdn.example.com/logo.png', RELATIVE],
        ['/logo.png', RELATIVE],
        [
          'http://',
          { type: 'url_parsing', msg: 'Input should be a valid URL, empty host', ctx: { error: 'empty host' } },
        ],
        [
          'https://exa mple.com/logo.png',
          {
            type: 'url_parsing',
            msg: 'Input should be a valid URL, invalid domain character',
            ctx: { error: 'invalid domain character' },
          },
        ],
        [
          'https://cdn.example.com:70000/logo.png',
          {
            type: 'url_parsing',
            msg: 'Input should be a valid URL, invalid port number',
            ctx: { error: 'invalid port number' },
          },
        ],
      ];
      for (const [url, expected] of cases) {
        const res = await create(who, [{ firstName: 'Ada', prospectLogoUrl: url }]).expect(422);
        expect(detailOf(res)).toEqual([{ ...expected, loc: ['body', 'links', 0, 'prospectLogoUrl'], input: url }]);
      }
      expect(await jobsOf(who)).toBe(0);
    });

    it('keeps the length bounds first: an empty or over-long URL is a string error, not a URL one', async () => {
      const who = await t.createTenant();
      const long = `javascript:${'a'.repeat(2100)}`;
      const res = await create(who, [{ firstName: 'Ada', shareThumbnailUrl: '', prospectLogoUrl: long }]).expect(422);
      expect(detailOf(res)).toEqual([
        {
          type: 'string_too_short',
          loc: ['body', 'links', 0, 'shareThumbnailUrl'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
        {
          type: 'string_too_long',
          loc: ['body', 'links', 0, 'prospectLogoUrl'],
          msg: 'String should have at most 2083 characters',
          input: long,
          ctx: { max_length: 2083 },
        },
      ]);
    });

    it('accepts absolute http and https URLs and stores them as sent', async () => {
      const who = await t.createTenant();
      const link = await createdLink(who, {
        shareThumbnailUrl: 'HTTPS://CDN.Example.com/card.png?v=2#x',
        prospectLogoUrl: 'http://logo.example.com:8080/a b.png',
      });
      expect(link).toMatchObject({
        shareThumbnailUrl: 'HTTPS://CDN.Example.com/card.png?v=2#x',
        prospectLogoUrl: 'http://logo.example.com:8080/a b.png',
        thumbnailStatus: 'provided',
      });
    });
  });

  describe('link update', () => {
    it('refuses a hostile scheme at ["body", field] and changes nothing', async () => {
      const who = await t.createTenant();
      const link = await createdLink(who, { shareThumbnailUrl: PROVIDED });
      for (const url of HOSTILE) {
        const res = await request(t.server)
          .patch(`${LINKS}/${link.id}`)
          .set('x-api-key', who.key)
          .set('Idempotency-Key', randomUUID())
          .send({ shareThumbnailUrl: url, prospectLogoUrl: url })
          .expect(422);
        expect(detailOf(res)).toEqual([
          { ...SCHEME, loc: ['body', 'shareThumbnailUrl'], input: url },
          { ...SCHEME, loc: ['body', 'prospectLogoUrl'], input: url },
        ]);
      }
      expect(await getLink(who, link.id)).toEqual(sameLink(link));
    });

    it('null still clears a URL', async () => {
      const who = await t.createTenant();
      const link = await createdLink(who, {
        shareThumbnailUrl: PROVIDED,
        prospectLogoUrl: 'https://cdn.example.com/logo.png',
      });
      const res = await request(t.server)
        .patch(`${LINKS}/${link.id}`)
        .set('x-api-key', who.key)
        .set('Idempotency-Key', randomUUID())
        .send({ prospectLogoUrl: null })
        .expect(200);
      expect((res.body as LinkUpdate).customLink.prospectLogoUrl).toBeNull();
    });
  });

  describe('session ingestion', () => {
    it('refuses another scheme in tracking.referrerUrl and tracking.landingPageUrl; stores nothing', async () => {
      const who = await t.createTenant(['sessions:write', 'sessions:read']);
      const id = newSessionId();
      const tracking = { referrerUrl: 'javascript:alert(1)', landingPageUrl: 'data:text/html,<h1>x</h1>' };
      const res = await ingest(t.server, who.key, id, sessionBody({ tracking })).expect(422);
      expect(detailOf(res)).toEqual([
        { ...SCHEME, loc: ['body', 'tracking', 'referrerUrl'], input: tracking.referrerUrl },
        { ...SCHEME, loc: ['body', 'tracking', 'landingPageUrl'], input: tracking.landingPageUrl },
      ]);
      await request(t.server).get(`/api/v1/sessions/${id}`).set('x-api-key', who.key).expect(404);
    });

    it("accepts http(s) URLs, and '' for none (a browser's empty referrer)", async () => {
      const who = await t.createTenant(['sessions:write', 'sessions:read']);
      const id = newSessionId();
      await ingest(
        t.server,
        who.key,
        id,
        sessionBody({ tracking: { referrerUrl: '', landingPageUrl: 'https://demo.example.com/?utm_source=x' } }),
      ).expect(200);
      const detail = (await request(t.server).get(`/api/v1/sessions/${id}`).set('x-api-key', who.key).expect(200))
        .body as SessionDetail;
      expect(detail.tracking).toMatchObject({
        referrerUrl: '',
        landingPageUrl: 'https://demo.example.com/?utm_source=x',
      });
    });
  });
});
