import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { detailOf, unique } from './support/api-responses';
import type {
  BulkActionAnswer,
  Campaign,
  CampaignPage,
  Job,
  JobEnvelope,
  JobItemPage,
  Link,
  LinkPage,
  LinkUpdate,
} from './support/api-types';
import { sameLink } from './support/fold';
import { createTestApp, eventually, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * Custom Links through HTTP: docs/api.md §1.1, §2.6, §2.7, §2.9, §3.4, §3.5, §4.3, §4.5, §6.1 (GET
 * /l/{slug}), §7 (404 texts, the 422 shape), §8, §10 (Idempotency-Key), §11 (filters), §12 (update,
 * bulk actions, campaigns). Links are created through the asynchronous creation job, so the app runs
 * its workers (APP_ROLE all).
 */

const LINKS = '/api/v1/custom-links';
const JOBS = '/api/v1/custom-link-jobs';
const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const PUBLIC_BASE_URL = 'https://go.links.test';
const EXPERIENCE_BASE_URL = 'https://experience.test/x';
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LINK_NOT_FOUND = { detail: "Custom Link not found for the key's organization." };
const KEY_REQUIRED = { detail: 'The operation requires an Idempotency-Key header.' };
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';
const TERMINAL = ['completed', 'completed_with_errors', 'cancelled', 'failed'];
const HUMAN_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
/** A provided thumbnail: no render is queued, so creation jobs settle quickly. */
const PROVIDED = 'https://cdn.example.com/card.png';

// Jobs and renders run on the app's workers; the e2e project's testTimeout is not applied per project.
jest.setTimeout(120_000);

const LINK_KEYS = [
  'id',
  'displayName',
  'active',
  'url',
  'previewUrl',
  'thumbnailStatus',
  'createdAt',
  'updatedAt',
  'engagement',
  'externalId',
  'firstName',
  'lastName',
  'email',
  'phone',
  'role',
  'company',
  'context',
  'shareTitle',
  'shareDescription',
  'shareThumbnailUrl',
  'prospectLogoUrl',
  'prospectDomain',
  'campaignId',
  'jobId',
  'thumbnailAttempts',
  'thumbnailError',
  'expiresAt',
  'maxHumanOpens',
  'expiredRedirectUrl',
  'accessState',
].sort();
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

const slugOf = (link: Link) => link.url.slice(`${PUBLIC_BASE_URL}/l/`.length);
const ids = (links: { id: string }[]) => links.map((l) => l.id);
const byCreated = (order: 'asc' | 'desc') => (a: Link, b: Link) => {
  const sign = order === 'asc' ? 1 : -1;
  const byTime = Date.parse(a.createdAt) - Date.parse(b.createdAt);
  if (byTime !== 0) return sign * byTime;
  return sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
};
/** The same instant written with a +02:00 offset. */
const withOffset = (iso: string) => {
  const shifted = new Date(Date.parse(iso) + 2 * 3600 * 1000).toISOString();
  return `${shifted.slice(0, 23)}+02:00`;
};

describe('custom links', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
      PUBLIC_BASE_URL,
      EXPERIENCE_BASE_URL,
    });
  });
  afterAll(() => t.close());

  const tenant = () => t.createTenant(['custom_links:read', 'custom_links:write']);
  const get = (who: Tenant, path: string) => request(t.server).get(path).set('x-api-key', who.key);

  const getJob = async (who: Tenant, id: string): Promise<Job> =>
    (await get(who, `${JOBS}/${id}`).expect(200)).body as Job;
  const waitForJob = (who: Tenant, id: string, timeoutMs = 30000): Promise<Job> =>
    readUntil(
      () => getJob(who, id),
      (job) => TERMINAL.includes(job.status),
      timeoutMs,
    );
  const getLink = async (who: Tenant, id: string): Promise<Link> =>
    (await get(who, `${LINKS}/${id}`).expect(200)).body as Link;

  /** Creates links through a creation job, waits until it is terminal and returns them in input order. */
  const createLinks = async (who: Tenant, links: Record<string, unknown>[], campaign?: unknown): Promise<Link[]> => {
    const res = await request(t.server)
      .post(LINKS)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send(campaign === undefined ? { links } : { links, campaign })
      .expect(202);
    const job = (res.body as JobEnvelope).job;
    const done = await waitForJob(who, job.id);
    expect(done.status).toBe('completed');
    const items = (await get(who, `${JOBS}/${job.id}/items?limit=200`).expect(200)).body as JobItemPage;
    expect(items.items.map((i) => i.status)).toEqual(links.map(() => 'created'));
    return Promise.all(items.items.map((i) => getLink(who, i.customLinkId as string)));
  };
  const createOne = async (who: Tenant, fields: Record<string, unknown> = {}, campaign?: unknown): Promise<Link> =>
    (
      await createLinks(
        who,
        [{ firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical', shareThumbnailUrl: PROVIDED, ...fields }],
        campaign,
      )
    )[0];

  const patch = (who: Tenant, id: string, body: unknown, idempotencyKey?: string) => {
    const req = request(t.server).patch(`${LINKS}/${id}`).set('x-api-key', who.key);
    return (idempotencyKey === undefined ? req : req.set('Idempotency-Key', idempotencyKey)).send(body as object);
  };
  const action = (who: Tenant, body: unknown) =>
    request(t.server)
      .post(`${LINKS}/actions`)
      .set('x-api-key', who.key)
      .send(body as object);
  const list = async (who: Tenant, query = ''): Promise<LinkPage> => {
    const res = await get(who, `${LINKS}${query}`).expect(200);
    return res.body as LinkPage;
  };
  const listIds = async (who: Tenant, query: string) => ids((await list(who, query)).customLinks);
  const campaigns = async (who: Tenant): Promise<Campaign[]> =>
    ((await get(who, CAMPAIGNS).expect(200)).body as CampaignPage).campaigns;
  const createCampaign = async (who: Tenant, name: string): Promise<Campaign> =>
    (await request(t.server).post(CAMPAIGNS).set('x-api-key', who.key).send({ name }).expect(201)).body as Campaign;
  const open = (slug: string) => request(t.server).get(`/l/${slug}`).set('User-Agent', HUMAN_UA).redirects(0);
  /** Waits until the clock is past `iso`, so the next write gets a later timestamp. */
  const clockPast = (iso: string) => eventually(async () => Date.now() > Date.parse(iso) + 2, 1000, 5);

  describe('read', () => {
    it('GET one link returns every field of docs/api.md §2.6 and §2.7, with nulls and defaults for what was not given', async () => {
      const who = await tenant();
      const before = Date.now();
      const link = await createOne(who, { email: 'ada@example.com', externalId: 'crm-ada' });

      expect(Object.keys(link).sort()).toEqual(LINK_KEYS);
      expect(Object.keys(link.engagement).sort()).toEqual(ENGAGEMENT_KEYS);
      expect(link).toMatchObject({
        id: expect.stringMatching(UUID),
        displayName: 'Ada Lovelace, Analytical',
        active: true,
        thumbnailStatus: 'provided',
        shareThumbnailUrl: PROVIDED,
        createdAt: expect.stringMatching(ISO_MS_Z),
        updatedAt: expect.stringMatching(ISO_MS_Z),
        externalId: 'crm-ada',
        email: 'ada@example.com',
        phone: null,
        role: null,
        context: null,
        shareTitle: null,
        shareDescription: null,
        prospectLogoUrl: null,
        prospectDomain: null,
        campaignId: null,
        jobId: expect.stringMatching(UUID),
        thumbnailAttempts: 0,
        thumbnailError: null,
        expiresAt: null,
        maxHumanOpens: null,
        expiredRedirectUrl: null,
        accessState: 'open',
      });
      expect(link.url).toMatch(new RegExp(`^${PUBLIC_BASE_URL.replace(/\./g, '\\.')}/l/[A-Za-z0-9_-]{20,}$`));
      expect(link.previewUrl).toMatch(new RegExp(`^${link.url.replace(/[.?]/g, '\\$&')}\\?preview=[A-Za-z0-9_-]{22}$`));
      expect(Date.parse(link.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(link.engagement).toMatchObject({
        stage: 'not_opened',
        openObserved: false,
        botScannedOnly: false,
        loadCount: 0,
        uniqueVisitorCount: 0,
        loadsPerUniqueVisitor: null,
        visitorCountMode: 'identified',
        lastActivityAt: null,
        leadSubmitted: false,
      });
    });

    it("answers 404 for an unknown id and for another organization's link; 422 for an id that is not a uuid", async () => {
      const [who, other] = [await tenant(), await tenant()];
      const theirs = await createOne(other);

      await get(who, `${LINKS}/${UNKNOWN_ID}`).expect(404, LINK_NOT_FOUND);
      await get(who, `${LINKS}/${theirs.id}`).expect(404, LINK_NOT_FOUND);
      const bad = await get(who, `${LINKS}/not-a-uuid`).expect(422);
      expect(detailOf(bad)).toHaveLength(1);
      expect(detailOf(bad)[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'link_id'], input: 'not-a-uuid' });
      // The owner still sees it, and the list of the other organization is empty.
      expect((await getLink(other, theirs.id)).id).toBe(theirs.id);
      expect(await list(who)).toEqual({ customLinks: [], total: 0, limit: 50, offset: 0, nextCursor: null });
    });

    it('needs a key (401) and a custom_links scope (403); custom_links:read may read but not write', async () => {
      const who = await tenant();
      const link = await createOne(who);
      const reader = { ...who, key: await t.createKey(who.organizationId, ['custom_links:read']) };
      const stranger = { ...who, key: await t.createKey(who.organizationId, ['sessions:read']) };

      await request(t.server).get(LINKS).expect(401, { detail: 'API key required or invalid.' });
      await get(stranger, LINKS).expect(403, { detail: 'API key does not include the required scope.' });
      expect((await getLink(reader, link.id)).id).toBe(link.id);
      await patch(reader, link.id, { context: 'x' }).expect(403);
      await action(reader, { action: 'deactivate', customLinkIds: [link.id] }).expect(403);
      expect((await getLink(who, link.id)).context).toBeNull();
    });
  });

  describe('list', () => {
    // One organization with three links created by three jobs (distinct createdAt), filed, deactivated and opened.
    let who: Tenant;
    let ada: Link;
    let grace: Link;
    let alan: Link;
    let campaign: Campaign;

    beforeAll(async () => {
      who = await tenant();
      campaign = await createCampaign(who, unique('Navy'));
      ada = await createOne(who, {
        displayName: 'Countess of Computing',
        email: 'Ada@Example.com',
        company: 'Analytical Engines',
        externalId: 'crm-1',
      });
      await clockPast(ada.createdAt);
      grace = await createOne(
        who,
        { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.mil', company: 'US Navy', externalId: 'crm-2' },
        { id: campaign.id },
      );
      await clockPast(grace.createdAt);
      alan = await createOne(who, {
        firstName: 'Alan',
        lastName: 'Turing',
        email: 'alan@bletchley.uk',
        company: '100% Pure_Co',
        externalId: 'crm-3',
      });
      await action(who, { action: 'deactivate', customLinkIds: [alan.id] }).expect(200);
    });

    // Human opens, grace first, then ada; alan is never opened. Done once, by the first test that needs it.
    let opened: Promise<void> | undefined;
    const openGraceThenAda = () => {
      opened ??= (async () => {
        await open(slugOf(grace)).expect(302);
        await eventually(async () => (await getLink(who, grace.id)).engagement.lastActivityAt !== null);
        await clockPast((await getLink(who, grace.id)).engagement.lastActivityAt as string);
        await open(slugOf(ada)).expect(302);
        await eventually(async () => (await getLink(who, ada.id)).engagement.lastActivityAt !== null);
      })();
      return opened;
    };

    it('lists newest first by default (created_at desc, then id), with total, limit and offset', async () => {
      const body = await list(who);
      expect(body.total).toBe(3);
      expect(body.limit).toBe(50);
      expect(body.offset).toBe(0);
      expect(ids(body.customLinks)).toEqual([alan.id, grace.id, ada.id]);
      expect(ids(body.customLinks)).toEqual(ids([ada, grace, alan].sort(byCreated('desc'))));
      expect(Object.keys(body.customLinks[0]).sort()).toEqual(LINK_KEYS);
    });

    it('sorts by created_at in both directions', async () => {
      expect(await listIds(who, '?sort=created_at&order=asc')).toEqual([ada.id, grace.id, alan.id]);
      expect(await listIds(who, '?order=asc')).toEqual([ada.id, grace.id, alan.id]);
      expect(await listIds(who, '?sort=created_at&order=desc')).toEqual([alan.id, grace.id, ada.id]);
    });

    it('sorts by last_activity_at, links without activity last in either direction', async () => {
      await openGraceThenAda();
      const [a, g, t3] = [await getLink(who, ada.id), await getLink(who, grace.id), await getLink(who, alan.id)];
      expect(Date.parse(a.engagement.lastActivityAt as string)).toBeGreaterThan(
        Date.parse(g.engagement.lastActivityAt as string),
      );
      expect(t3.engagement.lastActivityAt).toBeNull();

      expect(await listIds(who, '?sort=last_activity_at')).toEqual([ada.id, grace.id, alan.id]);
      expect(await listIds(who, '?sort=last_activity_at&order=desc')).toEqual([ada.id, grace.id, alan.id]);
      expect(await listIds(who, '?sort=last_activity_at&order=asc')).toEqual([grace.id, ada.id, alan.id]);
    });

    it('pages with limit and offset over the same order', async () => {
      const page = await list(who, '?limit=1&offset=1');
      expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
      expect(ids(page.customLinks)).toEqual([grace.id]);
      expect(await listIds(who, '?limit=2&offset=2')).toEqual([ada.id]);
      expect((await list(who, '?offset=5')).customLinks).toEqual([]);
    });

    it('filters by campaign_id and active', async () => {
      expect(await listIds(who, `?campaign_id=${campaign.id}`)).toEqual([grace.id]);
      expect(await listIds(who, `?campaign_id=${UNKNOWN_ID}`)).toEqual([]);
      expect(await listIds(who, '?active=false')).toEqual([alan.id]);
      expect(await listIds(who, '?active=true')).toEqual([grace.id, ada.id]);
      const filtered = await list(who, '?active=true&limit=1');
      expect(filtered.total).toBe(2);
    });

    it('filters by the exact engagement stage', async () => {
      await openGraceThenAda();
      expect(await listIds(who, '?stage=opened')).toEqual([grace.id, ada.id]);
      expect(await listIds(who, '?stage=not_opened')).toEqual([alan.id]);
      expect(await listIds(who, '?stage=engaged')).toEqual([]);
      expect((await getLink(who, ada.id)).engagement.stage).toBe('opened');
    });

    it('filters by exact external_id and by exact, case-insensitive email', async () => {
      expect(await listIds(who, '?external_id=crm-2')).toEqual([grace.id]);
      expect(await listIds(who, '?external_id=crm')).toEqual([]);
      expect(await listIds(who, '?external_id=CRM-2')).toEqual([]);
      expect(await listIds(who, `?email=${encodeURIComponent('ADA@example.COM')}`)).toEqual([ada.id]);
      expect(await listIds(who, `?email=${encodeURIComponent('ada@example')}`)).toEqual([]);
      expect(await listIds(who, `?email=${encodeURIComponent('grace@navy.mil')}`)).toEqual([grace.id]);
    });

    it('filters by a case-insensitive company substring, LIKE wildcards matching literally', async () => {
      expect(await listIds(who, '?company=ENGINES')).toEqual([ada.id]);
      expect(await listIds(who, '?company=navy')).toEqual([grace.id]);
      expect(await listIds(who, `?company=${encodeURIComponent('%')}`)).toEqual([alan.id]);
      expect(await listIds(who, '?company=_')).toEqual([alan.id]);
      expect(await listIds(who, `?company=${encodeURIComponent('0%_p')}`)).toEqual([]);
    });

    it('searches q over displayName, firstName, lastName, email, company and externalId, case-insensitively', async () => {
      expect(await listIds(who, '?q=countess')).toEqual([ada.id]); // displayName
      expect(await listIds(who, '?q=GRACE')).toEqual([grace.id]); // firstName, email
      expect(await listIds(who, '?q=turing')).toEqual([alan.id]); // lastName
      expect(await listIds(who, '?q=bletchley')).toEqual([alan.id]); // email
      expect(await listIds(who, '?q=analytical')).toEqual([ada.id]); // company
      expect(await listIds(who, '?q=crm-3')).toEqual([alan.id]); // externalId
      expect(await listIds(who, '?q=crm')).toEqual([alan.id, grace.id, ada.id]);
      expect(await listIds(who, `?q=${encodeURIComponent('%')}`)).toEqual([alan.id]);
      expect(await listIds(who, '?q=nobody-matches-this')).toEqual([]);
    });

    it('searches what a link says now: an edit is found by its new words only, its engagement changes nothing', async () => {
      const org = await tenant();
      const link = await createOne(org, {
        displayName: 'Astronomer',
        firstName: 'Mary',
        lastName: 'Somerville',
        company: 'Royal Society',
      });
      expect(await listIds(org, '?q=somerville&company=royal')).toEqual([link.id]);
      await patch(org, link.id, { lastName: 'Fairfax', company: 'Astronomical Society' }, unique('edit')).expect(200);
      expect(await listIds(org, '?q=fairfax')).toEqual([link.id]);
      expect(await listIds(org, '?q=somerville')).toEqual([]);
      expect(await listIds(org, '?company=astronomical')).toEqual([link.id]);
      expect(await listIds(org, '?company=royal')).toEqual([]);
      await open(slugOf(link)).expect(302);
      await eventually(async () => (await getLink(org, link.id)).engagement.lastActivityAt !== null);
      expect(await listIds(org, '?q=fairfax&company=astronomical')).toEqual([link.id]);
      expect(await listIds(who, '?q=fairfax')).toEqual([]);
    });

    it('filters by creation date, both bounds inclusive, any ISO 8601 offset', async () => {
      expect(await listIds(who, `?created_from=${encodeURIComponent(grace.createdAt)}`)).toEqual([alan.id, grace.id]);
      expect(await listIds(who, `?created_to=${encodeURIComponent(grace.createdAt)}`)).toEqual([grace.id, ada.id]);
      expect(
        await listIds(
          who,
          `?created_from=${encodeURIComponent(grace.createdAt)}&created_to=${encodeURIComponent(grace.createdAt)}`,
        ),
      ).toEqual([grace.id]);
      expect(await listIds(who, `?created_from=${encodeURIComponent(withOffset(grace.createdAt))}`)).toEqual([
        alan.id,
        grace.id,
      ]);
      // Without an offset the timestamp is UTC.
      expect(await listIds(who, `?created_to=${encodeURIComponent(grace.createdAt.slice(0, 23))}`)).toEqual([
        grace.id,
        ada.id,
      ]);
    });

    it('combines filters and sort', async () => {
      await openGraceThenAda();
      expect(await listIds(who, `?stage=opened&sort=last_activity_at&order=asc`)).toEqual([grace.id, ada.id]);
      expect(await listIds(who, `?active=true&q=crm&sort=created_at&order=asc`)).toEqual([ada.id, grace.id]);
      expect(await listIds(who, `?active=true&company=a&sort=last_activity_at&order=desc`)).toEqual([ada.id, grace.id]);
    });

    it('answers 422 with the pydantic shape for bad filter values', async () => {
      const expectQueryError = async (query: string, loc: string, types: string[], input: unknown) => {
        const res = await get(who, `${LINKS}${query}`).expect(422);
        const detail = detailOf(res);
        expect(detail).toHaveLength(1);
        expect(detail[0].loc).toEqual(['query', loc]);
        expect(types).toContain(detail[0].type);
        expect(detail[0].input).toEqual(input);
        expect(typeof detail[0].msg).toBe('string');
      };
      await expectQueryError('?campaign_id=nope', 'campaign_id', ['uuid_parsing'], 'nope');
      await expectQueryError('?active=maybe', 'active', ['bool_parsing'], 'maybe');
      await expectQueryError('?stage=closed', 'stage', ['enum', 'literal_error'], 'closed');
      await expectQueryError('?sort=name', 'sort', ['enum', 'literal_error'], 'name');
      await expectQueryError('?order=up', 'order', ['enum', 'literal_error'], 'up');
      await expectQueryError('?created_from=yesterday', 'created_from', ['datetime_from_date_parsing'], 'yesterday');
      await expectQueryError(`?external_id=${'x'.repeat(256)}`, 'external_id', ['string_too_long'], 'x'.repeat(256));
      await expectQueryError(`?q=${'x'.repeat(256)}`, 'q', ['string_too_long'], 'x'.repeat(256));
      await expectQueryError('?limit=0', 'limit', ['greater_than_equal'], '0');
      await expectQueryError('?limit=201', 'limit', ['less_than_equal'], '201');
      await expectQueryError('?offset=-1', 'offset', ['greater_than_equal'], '-1');

      const tooLong = await get(who, `${LINKS}?company=${'c'.repeat(256)}`).expect(422);
      expect(detailOf(tooLong)[0]).toEqual({
        type: 'string_too_long',
        loc: ['query', 'company'],
        msg: 'String should have at most 255 characters',
        input: 'c'.repeat(256),
        ctx: { max_length: 255 },
      });
    });
  });

  describe('update (PATCH)', () => {
    it('changes only the fields present; a non-thumbnail change needs no Idempotency-Key and has job null', async () => {
      const who = await tenant();
      const link = await createOne(who, { email: 'ada@example.com', context: 'old', phone: '+1 555' });
      await clockPast(link.updatedAt);

      const res = await patch(who, link.id, {
        context: 'new context',
        email: 'ada@lovelace.org',
        shareDescription: 'Hello',
      }).expect(200);
      const body = res.body as LinkUpdate;
      expect(Object.keys(body).sort()).toEqual(['customLink', 'job']);
      expect(body.job).toBeNull();
      const { updatedAt, ...rest } = body.customLink;
      const { updatedAt: before, ...unchanged } = link;
      expect(rest).toEqual({
        ...sameLink(unchanged),
        context: 'new context',
        email: 'ada@lovelace.org',
        shareDescription: 'Hello',
      });
      expect(Date.parse(updatedAt)).toBeGreaterThan(Date.parse(before));
      expect(await getLink(who, link.id)).toEqual(sameLink(body.customLink));
    });

    it('an empty body changes nothing', async () => {
      const who = await tenant();
      const link = await createOne(who);
      const res = await patch(who, link.id, {}).expect(200);
      expect((res.body as LinkUpdate).customLink).toMatchObject({
        ...sameLink(link),
        updatedAt: expect.stringMatching(ISO_MS_Z),
      });
      expect((res.body as LinkUpdate).job).toBeNull();
    });

    it('sets and clears nullable fields with null', async () => {
      const who = await tenant();
      const link = await createOne(who, { role: 'CTO', context: 'ctx' });
      const res = await patch(who, link.id, { context: null }).expect(200);
      expect((res.body as LinkUpdate).customLink).toMatchObject({ context: null, role: 'CTO' });
    });

    it('a thumbnail-affecting change returns a thumbnail job, re-renders the card and needs an Idempotency-Key', async () => {
      const who = await tenant();
      // No shareThumbnailUrl: the service renders the card.
      const [link] = await createLinks(who, [{ firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical' }]);
      expect(link.thumbnailStatus).toBe('generated');
      const firstCard = link.shareThumbnailUrl as string;
      expect(firstCard).toMatch(
        new RegExp(`^${PUBLIC_BASE_URL.replace(/\./g, '\\.')}/thumbnails/${link.id}/[0-9a-f]{64}\\.png$`),
      );

      // Missing key: 400, nothing changes.
      await patch(who, link.id, { displayName: 'Ada L.' }).expect(400, KEY_REQUIRED);
      await patch(who, link.id, { company: 'Babbage & Co', context: 'also this' }).expect(400, KEY_REQUIRED);
      expect(await getLink(who, link.id)).toEqual(sameLink(link));

      const res = await patch(who, link.id, { displayName: 'Ada L.' }, randomUUID()).expect(200);
      const body = res.body as LinkUpdate;
      expect(body.customLink.displayName).toBe('Ada L.');
      expect(body.job).toMatchObject({ id: expect.stringMatching(UUID), type: 'thumbnail', totalItems: 1 });
      expect(['queued', 'processing']).toContain(body.customLink.thumbnailStatus);

      const job = await waitForJob(who, body.job!.id);
      expect(job.status).toBe('completed');
      const rendered = await getLink(who, link.id);
      expect(rendered.thumbnailStatus).toBe('generated');
      expect(rendered.shareThumbnailUrl).toMatch(new RegExp(`/thumbnails/${link.id}/[0-9a-f]{64}\\.png$`));
      expect(rendered.thumbnailAttempts).toBeGreaterThanOrEqual(1);

      // The card shows the company: changing it gives a new card at a new address (an address
      // never changes content, so caches never serve a stale card).
      const companyChange = await patch(who, link.id, { company: 'Babbage & Co' }, randomUUID()).expect(200);
      const companyJob = (companyChange.body as LinkUpdate).job!;
      expect(companyJob).toMatchObject({ type: 'thumbnail', totalItems: 1 });
      expect(companyJob.id).not.toBe(body.job!.id);
      expect((await waitForJob(who, companyJob.id)).status).toBe('completed');
      const recarded = await getLink(who, link.id);
      expect(recarded).toMatchObject({ thumbnailStatus: 'generated', company: 'Babbage & Co', displayName: 'Ada L.' });
      expect(recarded.shareThumbnailUrl).toMatch(new RegExp(`/thumbnails/${link.id}/[0-9a-f]{64}\\.png$`));
      expect(recarded.shareThumbnailUrl).not.toBe(firstCard);
      expect(recarded.shareThumbnailUrl).not.toBe(rendered.shareThumbnailUrl);
    });

    it('every thumbnail-affecting field needs the key when it changes value', async () => {
      const who = await tenant();
      const link = await createOne(who, { role: 'CTO', shareTitle: 'T', prospectDomain: 'example.com' });
      const changes: Record<string, unknown>[] = [
        { displayName: 'Other name' },
        { firstName: 'Augusta' },
        { lastName: 'King' },
        { company: 'Other Co' },
        { role: 'CEO' },
        { shareTitle: 'New title' },
        { shareThumbnailUrl: 'https://cdn.example.com/other.png' },
        { prospectLogoUrl: 'https://cdn.example.com/logo.png' },
        { prospectDomain: 'other.example' },
      ];
      for (const change of changes) await patch(who, link.id, change).expect(400, KEY_REQUIRED);
      expect(await getLink(who, link.id)).toEqual(sameLink(link));
    });

    it('setting a thumbnail-affecting field to its current value is not a change: no key needed, job null', async () => {
      const who = await tenant();
      const [link] = await createLinks(who, [
        { firstName: 'Grace', lastName: 'Hopper', company: 'Navy', role: 'Admiral' },
      ]);
      const res = await patch(who, link.id, {
        firstName: 'Grace',
        company: 'Navy',
        role: 'Admiral',
        displayName: link.displayName,
        context: 'c',
      }).expect(200);
      const body = res.body as LinkUpdate;
      expect(body.job).toBeNull();
      expect(body.customLink.context).toBe('c');
      expect(body.customLink.thumbnailStatus).toBe('generated');
      expect(body.customLink.shareThumbnailUrl).toBe(link.shareThumbnailUrl);

      // With a key and the same values, still no job.
      const again = await patch(who, link.id, { lastName: 'Hopper' }, randomUUID()).expect(200);
      expect((again.body as LinkUpdate).job).toBeNull();
    });

    it('serves the rendered card publicly as a PNG, cacheable for 5 minutes', async () => {
      const who = await tenant();
      const [link] = await createLinks(who, [{ firstName: 'Alan', lastName: 'Turing', company: 'Bletchley' }]);
      expect(link.thumbnailStatus).toBe('generated');
      const path = new URL(link.shareThumbnailUrl as string).pathname;
      expect(path).toMatch(new RegExp(`^/thumbnails/${link.id}/[0-9a-f]{64}\\.png$`));

      const res = await request(t.server).get(path).buffer(true).expect(200); // no key
      expect(res.headers['content-type']).toMatch(/^image\/png/);
      // Short, so that a deactivated link's card leaves shared caches soon (test/thumbnail-rendering.e2e-spec.ts).
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      const png = res.body as Buffer;
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);

      await request(t.server)
        .get(`/thumbnails/${link.id}/${'0'.repeat(64)}.png`)
        .expect(404);
    });

    it('a logo that cannot be fetched ends in fallback with logo_fetch_failed', async () => {
      const who = await tenant();
      const [link] = await createLinks(who, [
        { firstName: 'Ada', company: 'Analytical', prospectLogoUrl: 'http://127.0.0.1:1/logo.png' },
      ]);
      expect(link.thumbnailStatus).toBe('fallback');
      expect(link.thumbnailError).toEqual({
        code: 'logo_fetch_failed',
        message: 'The prospect logo could not be fetched.',
      });
      expect(link.shareThumbnailUrl).toMatch(new RegExp(`/thumbnails/${link.id}/[0-9a-f]{64}\\.png$`));
    });

    it('rejects the docs/api.md §4.3 bounds with 422, one pydantic entry per field in field order, and changes nothing', async () => {
      const who = await tenant();
      const link = await createOne(who);
      const body = {
        campaign: { id: 'nope' },
        active: {},
        prospectDomain: 'd'.repeat(256),
        prospectLogoUrl: 'u'.repeat(2084),
        shareThumbnailUrl: '',
        shareDescription: 's'.repeat(501),
        shareTitle: 't'.repeat(256),
        context: 'c'.repeat(10001),
        company: 'c'.repeat(256),
        role: 'r'.repeat(256),
        phone: '5'.repeat(51),
        email: 'e'.repeat(256),
        lastName: 'l'.repeat(256),
        firstName: 'f'.repeat(256),
        displayName: '',
      };
      const res = await patch(who, link.id, body, randomUUID()).expect(422);
      const long = (field: string, max: number, input: string) => ({
        type: 'string_too_long',
        loc: ['body', field],
        msg: `String should have at most ${max} characters`,
        input,
        ctx: { max_length: max },
      });
      const detail = detailOf(res);
      expect(detail.slice(0, 14)).toEqual([
        {
          type: 'string_too_short',
          loc: ['body', 'displayName'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
        long('firstName', 255, body.firstName),
        long('lastName', 255, body.lastName),
        long('email', 255, body.email),
        long('phone', 50, body.phone),
        long('role', 255, body.role),
        long('company', 255, body.company),
        long('context', 10000, body.context),
        long('shareTitle', 255, body.shareTitle),
        long('shareDescription', 500, body.shareDescription),
        {
          type: 'string_too_short',
          loc: ['body', 'shareThumbnailUrl'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
        long('prospectLogoUrl', 2083, body.prospectLogoUrl),
        long('prospectDomain', 255, body.prospectDomain),
        { type: 'bool_type', loc: ['body', 'active'], msg: 'Input should be a valid boolean', input: {} },
      ]);
      expect(detail).toHaveLength(15);
      expect(detail[14]).toMatchObject({ type: 'uuid_parsing', loc: ['body', 'campaign', 'id'], input: 'nope' });
      expect(detail[14].msg).toMatch(/^Input should be a valid UUID/);
      expect(await getLink(who, link.id)).toEqual(sameLink(link));
    });

    it('accepts each bound exactly at its limit', async () => {
      const who = await tenant();
      const link = await createOne(who);
      const body = {
        displayName: 'd',
        email: 'e'.repeat(255),
        phone: '5'.repeat(50),
        context: 'c'.repeat(10000),
        shareDescription: 's'.repeat(500),
        prospectLogoUrl: `https://cdn.example.com/${'u'.repeat(2083 - 24)}`,
      };
      expect(body.prospectLogoUrl).toHaveLength(2083);
      const res = await patch(who, link.id, body, randomUUID()).expect(200);
      expect((res.body as LinkUpdate).customLink).toMatchObject(body);
    });

    it('rejects wrong types: string_type for a number, model_attributes_type for a non-object campaign, header bounds', async () => {
      const who = await tenant();
      const link = await createOne(who);
      const res = await patch(who, link.id, { displayName: 123 }, randomUUID()).expect(422);
      expect(detailOf(res)).toEqual([
        { type: 'string_type', loc: ['body', 'displayName'], msg: 'Input should be a valid string', input: 123 },
      ]);

      const campaign = await patch(who, link.id, { campaign: 'Q4' }).expect(422);
      expect(detailOf(campaign)).toEqual([
        {
          type: 'model_attributes_type',
          loc: ['body', 'campaign'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: 'Q4',
        },
      ]);

      const header = await patch(who, link.id, { displayName: 'X' }, 'k'.repeat(256)).expect(422);
      expect(detailOf(header)[0]).toMatchObject({
        type: 'string_too_long',
        loc: ['header', 'idempotency-key'],
        ctx: { max_length: 255 },
      });
      expect(await getLink(who, link.id)).toEqual(sameLink(link));
    });

    it("answers 404 for an unknown link and another organization's link, before the Idempotency-Key check, after validation", async () => {
      const [who, other] = [await tenant(), await tenant()];
      const theirs = await createOne(other);

      await patch(who, UNKNOWN_ID, { context: 'x' }).expect(404, LINK_NOT_FOUND);
      await patch(who, UNKNOWN_ID, { displayName: 'needs a key' }).expect(404, LINK_NOT_FOUND);
      await patch(who, theirs.id, { displayName: 'Hijacked' }, randomUUID()).expect(404, LINK_NOT_FOUND);
      await patch(who, theirs.id, { active: false }).expect(404, LINK_NOT_FOUND);
      const invalid = await patch(who, UNKNOWN_ID, { displayName: '' }).expect(422);
      expect(detailOf(invalid)[0].loc).toEqual(['body', 'displayName']);
      expect(await getLink(other, theirs.id)).toEqual(sameLink(theirs));
    });

    it('files by campaign id, by name (reused case-insensitively, else created), and unfiles with null', async () => {
      const who = await tenant();
      const [a, b] = await createLinks(who, [
        { firstName: 'A', shareThumbnailUrl: PROVIDED },
        { firstName: 'B', shareThumbnailUrl: PROVIDED },
      ]);
      const existing = await createCampaign(who, unique('Existing'));

      const byId = await patch(who, a.id, { campaign: { id: existing.id } }).expect(200);
      expect((byId.body as LinkUpdate).customLink.campaignId).toBe(existing.id);
      expect((byId.body as LinkUpdate).job).toBeNull();

      const name = unique('Fresh Campaign');
      const created = await patch(who, b.id, { campaign: { name } }).expect(200);
      const newId = (created.body as LinkUpdate).customLink.campaignId as string;
      expect(newId).toMatch(UUID);
      expect(newId).not.toBe(existing.id);
      let all = await campaigns(who);
      expect(all.find((c) => c.id === newId)).toMatchObject({ name, customLinkCount: 1, activeCustomLinkCount: 1 });

      const reused = await patch(who, a.id, { campaign: { name: name.toUpperCase() } }).expect(200);
      expect((reused.body as LinkUpdate).customLink.campaignId).toBe(newId);
      const byExistingName = await patch(who, b.id, { campaign: { name: existing.name.toLowerCase() } }).expect(200);
      expect((byExistingName.body as LinkUpdate).customLink.campaignId).toBe(existing.id);
      all = await campaigns(who);
      expect(all).toHaveLength(2);

      const unfiled = await patch(who, a.id, { campaign: null }).expect(200);
      expect((unfiled.body as LinkUpdate).customLink.campaignId).toBeNull();
      expect((await getLink(who, a.id)).campaignId).toBeNull();
      expect((await getLink(who, b.id)).campaignId).toBe(existing.id);
    });

    it('deactivates and reactivates with active; an inactive link answers 410 at /l/{slug}', async () => {
      const who = await tenant();
      const link = await createOne(who);
      const off = await patch(who, link.id, { active: false }).expect(200);
      expect(off.body as LinkUpdate).toMatchObject({
        customLink: { active: false },
        job: null,
      });
      await open(slugOf(link)).expect(410);
      await patch(who, link.id, { active: true }).expect(200);
      await open(slugOf(link)).expect(302);
    });
  });

  describe('bulk actions', () => {
    it('deactivate and activate: duplicates collapse, foreign and unknown ids are ignored', async () => {
      const [who, other] = [await tenant(), await tenant()];
      const [a, b, c] = await createLinks(
        who,
        ['A', 'B', 'C'].map((firstName) => ({ firstName, shareThumbnailUrl: PROVIDED })),
      );
      const theirs = await createOne(other);

      const res = await action(who, {
        action: 'deactivate',
        customLinkIds: [a.id, b.id, a.id, theirs.id, UNKNOWN_ID, b.id],
      }).expect(200);
      const body = res.body as BulkActionAnswer;
      expect(Object.keys(body).sort()).toEqual(['action', 'affectedCount', 'customLinkIds']);
      expect(body.action).toBe('deactivate');
      expect(body.affectedCount).toBe(2);
      expect([...body.customLinkIds].sort()).toEqual([a.id, b.id].sort());
      expect((await getLink(who, a.id)).active).toBe(false);
      expect((await getLink(who, b.id)).active).toBe(false);
      expect((await getLink(who, c.id)).active).toBe(true);
      expect((await getLink(other, theirs.id)).active).toBe(true);
      expect(await listIds(who, '?active=false&order=asc')).toEqual(ids([a, b].sort(byCreated('asc'))));

      const back = await action(who, { action: 'activate', customLinkIds: [b.id, b.id, theirs.id] }).expect(200);
      expect(back.body).toEqual({ action: 'activate', affectedCount: 1, customLinkIds: [b.id] });
      expect((await getLink(who, b.id)).active).toBe(true);
      expect((await getLink(who, a.id)).active).toBe(false);

      const none = await action(who, { action: 'deactivate', customLinkIds: [theirs.id] }).expect(200);
      expect(none.body).toEqual({ action: 'deactivate', affectedCount: 0, customLinkIds: [] });
      expect((await getLink(other, theirs.id)).active).toBe(true);
    });

    it("move files links in a campaign, null unfiles; another organization's campaign is a 422 value_error", async () => {
      const [who, other] = [await tenant(), await tenant()];
      const [a, b] = await createLinks(
        who,
        ['A', 'B'].map((firstName) => ({ firstName, shareThumbnailUrl: PROVIDED })),
      );
      const mine = await createCampaign(who, unique('Mine'));
      const theirs = await createCampaign(other, unique('Theirs'));

      const moved = await action(who, {
        action: 'move',
        customLinkIds: [a.id, b.id, a.id],
        campaignId: mine.id,
      }).expect(200);
      expect((moved.body as BulkActionAnswer).affectedCount).toBe(2);
      expect((moved.body as BulkActionAnswer).action).toBe('move');
      expect((await getLink(who, a.id)).campaignId).toBe(mine.id);
      expect((await getLink(who, b.id)).campaignId).toBe(mine.id);

      const foreign = await action(who, { action: 'move', customLinkIds: [a.id], campaignId: theirs.id }).expect(422);
      expect(detailOf(foreign)).toHaveLength(1);
      expect(detailOf(foreign)[0]).toMatchObject({ type: 'value_error', loc: ['body', 'campaignId'] });
      expect(detailOf(foreign)[0].msg).toMatch(/^Value error, /);
      const unknown = await action(who, { action: 'move', customLinkIds: [a.id], campaignId: UNKNOWN_ID }).expect(422);
      expect(detailOf(unknown)[0]).toMatchObject({ type: 'value_error', loc: ['body', 'campaignId'] });
      expect((await getLink(who, a.id)).campaignId).toBe(mine.id);

      const unfiled = await action(who, { action: 'move', customLinkIds: [a.id], campaignId: null }).expect(200);
      expect(unfiled.body).toEqual({ action: 'move', affectedCount: 1, customLinkIds: [a.id] });
      expect((await getLink(who, a.id)).campaignId).toBeNull();
      expect((await getLink(who, b.id)).campaignId).toBe(mine.id);
    });

    it('validates the body: move without campaignId, unknown action, 0 and 501 ids, a bad uuid', async () => {
      const who = await tenant();
      const link = await createOne(who);

      const missingBody = { action: 'move', customLinkIds: [link.id] };
      const missing = await action(who, missingBody).expect(422);
      expect(detailOf(missing)).toEqual([
        { type: 'missing', loc: ['body', 'campaignId'], msg: 'Field required', input: missingBody },
      ]);

      const unknownAction = await action(who, { action: 'archive', customLinkIds: [link.id] }).expect(422);
      expect(detailOf(unknownAction)).toHaveLength(1);
      expect(detailOf(unknownAction)[0].loc).toEqual(['body', 'action']);
      expect(['enum', 'literal_error']).toContain(detailOf(unknownAction)[0].type);
      expect(detailOf(unknownAction)[0].msg).toBe("Input should be 'activate', 'deactivate', 'move' or 'set_access'");

      const noAction = await action(who, { customLinkIds: [link.id] }).expect(422);
      expect(detailOf(noAction)[0]).toMatchObject({ type: 'missing', loc: ['body', 'action'] });

      const tooMany = Array.from({ length: 501 }, () => randomUUID());
      const long = await action(who, { action: 'deactivate', customLinkIds: tooMany }).expect(422);
      expect(detailOf(long)).toHaveLength(1);
      expect(detailOf(long)[0]).toMatchObject({
        type: 'too_long',
        loc: ['body', 'customLinkIds'],
        msg: 'List should have at most 500 items after validation, not 501',
        ctx: { field_type: 'List', max_length: 500, actual_length: 501 },
      });

      const empty = await action(who, { action: 'deactivate', customLinkIds: [] }).expect(422);
      expect(detailOf(empty)[0]).toMatchObject({
        type: 'too_short',
        loc: ['body', 'customLinkIds'],
        msg: 'List should have at least 1 item after validation, not 0',
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      });

      const badId = await action(who, {
        action: 'deactivate',
        customLinkIds: [link.id, link.id, link.id, 'nope'],
      }).expect(422);
      expect(detailOf(badId)).toHaveLength(1);
      expect(detailOf(badId)[0]).toMatchObject({
        type: 'uuid_parsing',
        loc: ['body', 'customLinkIds', 3],
        input: 'nope',
      });

      // Nothing was applied by any refused request.
      expect((await getLink(who, link.id)).active).toBe(true);

      // 500 ids is allowed.
      const max = await action(who, {
        action: 'deactivate',
        customLinkIds: [link.id, ...tooMany.slice(0, 499)],
      }).expect(200);
      expect(max.body).toEqual({ action: 'deactivate', affectedCount: 1, customLinkIds: [link.id] });
    });
  });

  describe('campaign counts and deletion', () => {
    it('customLinkCount and activeCustomLinkCount follow creation, deactivation, moves and PATCH filing', async () => {
      const who = await tenant();
      const spring = await createCampaign(who, unique('Spring'));
      const autumn = await createCampaign(who, unique('Autumn'));
      const counts = async () => {
        const all = await campaigns(who);
        const pick = (id: string) => {
          const c = all.find((x) => x.id === id) as Campaign;
          return [c.customLinkCount, c.activeCustomLinkCount];
        };
        return { spring: pick(spring.id), autumn: pick(autumn.id) };
      };

      const [a, b, c] = await createLinks(
        who,
        ['A', 'B', 'C'].map((firstName) => ({ firstName, shareThumbnailUrl: PROVIDED })),
        { id: spring.id },
      );
      expect([a.campaignId, b.campaignId, c.campaignId]).toEqual([spring.id, spring.id, spring.id]);
      expect(await counts()).toEqual({ spring: [3, 3], autumn: [0, 0] });

      await action(who, { action: 'deactivate', customLinkIds: [a.id] }).expect(200);
      expect(await counts()).toEqual({ spring: [3, 2], autumn: [0, 0] });

      await action(who, { action: 'move', customLinkIds: [a.id, b.id], campaignId: autumn.id }).expect(200);
      expect(await counts()).toEqual({ spring: [1, 1], autumn: [2, 1] });

      await patch(who, c.id, { active: false }).expect(200);
      expect(await counts()).toEqual({ spring: [1, 0], autumn: [2, 1] });

      await patch(who, c.id, { campaign: { id: autumn.id } }).expect(200);
      expect(await counts()).toEqual({ spring: [0, 0], autumn: [3, 1] });

      await action(who, { action: 'activate', customLinkIds: [a.id, c.id] }).expect(200);
      expect(await counts()).toEqual({ spring: [0, 0], autumn: [3, 3] });

      await action(who, { action: 'move', customLinkIds: [b.id], campaignId: null }).expect(200);
      expect(await counts()).toEqual({ spring: [0, 0], autumn: [2, 2] });
    });

    it('deleting a campaign keeps its links, with campaignId null', async () => {
      const who = await tenant();
      const doomed = await createCampaign(who, unique('Doomed'));
      const [a, b] = await createLinks(
        who,
        ['A', 'B'].map((firstName) => ({ firstName, shareThumbnailUrl: PROVIDED })),
        { id: doomed.id },
      );

      await request(t.server).delete(`${CAMPAIGNS}/${doomed.id}`).set('x-api-key', who.key).expect(204);
      const after = [await getLink(who, a.id), await getLink(who, b.id)];
      expect(after.map((l) => l.campaignId)).toEqual([null, null]);
      expect(after.map((l) => l.active)).toEqual([true, true]);
      expect((await list(who)).total).toBe(2);
      expect(await listIds(who, `?campaign_id=${doomed.id}`)).toEqual([]);
    });
  });

  describe('GET /l/{slug}', () => {
    it('redirects an active link to EXPERIENCE_BASE_URL?cl={slug} without a key and sets no cookie', async () => {
      const who = await tenant();
      const [a, b] = await createLinks(
        who,
        ['A', 'B'].map((firstName) => ({ firstName, shareThumbnailUrl: PROVIDED })),
      );
      expect(slugOf(a)).not.toBe(slugOf(b));

      const res = await open(slugOf(a)).expect(302);
      expect(res.headers.location).toBe(`${EXPERIENCE_BASE_URL}?cl=${slugOf(a)}`);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store');
      await eventually(async () => (await getLink(who, a.id)).engagement.stage === 'opened');
      expect((await getLink(who, b.id)).engagement.stage).toBe('not_opened');
    });

    it('answers 410 for an inactive link and 404 for an unknown slug', async () => {
      const who = await tenant();
      const link = await createOne(who);
      await action(who, { action: 'deactivate', customLinkIds: [link.id] }).expect(200);

      const gone = await open(slugOf(link)).expect(410);
      expect(gone.headers.location).toBeUndefined();
      await open(`${slugOf(link)}x`).expect(404);
      await open('definitely-not-a-slug-0000000000').expect(404);

      await action(who, { action: 'activate', customLinkIds: [link.id] }).expect(200);
      const back = await open(slugOf(link)).expect(302);
      expect(back.headers.location).toBe(`${EXPERIENCE_BASE_URL}?cl=${slugOf(link)}`);
    });
  });
});
