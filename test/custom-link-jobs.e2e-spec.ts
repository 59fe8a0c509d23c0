import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Response } from 'supertest';
import { detailOf, unique } from './support/api-responses';
import type {
  Campaign,
  CampaignPage,
  Job,
  JobEnvelope,
  JobItemPage,
  JobPage,
  Link,
  LinkPage,
} from './support/api-types';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * Custom Link creation and its jobs through HTTP: docs/api.md §2.6, §2.8, §3.2, §4.3, §4.4, §7, §8
 * (link mutations, creation units), §10 (Idempotency-Key), §11.3 (job filters), §12 (create,
 * thumbnails, jobs, cancel, retry). Jobs run on the app's own workers (APP_ROLE all).
 */

const LINKS = '/api/v1/custom-links';
const JOBS = '/api/v1/custom-link-jobs';
const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const PUBLIC_BASE_URL = 'https://go.jobs.test';
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY_REQUIRED = { detail: 'The operation requires an Idempotency-Key header.' };
const CONFLICT = { detail: 'The operation conflicts with current state or idempotency history.' };
const LIMITED = { detail: 'Rate limit or organization quota exceeded.' };
const JOB_NOT_FOUND = { detail: "Custom Link job not found for the key's organization." };
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';
const TERMINAL = ['completed', 'completed_with_errors', 'cancelled', 'failed'];
const PROVIDED = 'https://cdn.example.com/card.png';
// Jobs and renders run on the app's workers; the e2e project's testTimeout is not applied per project.
jest.setTimeout(120_000);

const FAST_APP = {
  APP_ROLE: 'all',
  RATE_LIMIT_PER_MINUTE: '100000',
  LINK_MUTATIONS_PER_MINUTE: '100000',
  PUBLIC_BASE_URL,
};

const JOB_KEYS = [
  'id',
  'type',
  'status',
  'totalItems',
  'createdAt',
  'updatedAt',
  'startedAt',
  'completedAt',
  'campaignId',
  'parentJobId',
  'createdCount',
  'failedCount',
  'thumbnailQueuedCount',
  'thumbnailProcessingCount',
  'thumbnailGeneratedCount',
  'thumbnailProvidedCount',
  'thumbnailFallbackCount',
  'thumbnailFailedCount',
  'progress',
  'pollAfterSeconds',
  'cancelRequested',
].sort();

/** `n` links with a provided thumbnail (no render), numbered external ids. */
const provided = (n: number, prefix = 'ext') =>
  Array.from({ length: n }, (_, i) => ({
    firstName: `P${i}`,
    lastName: 'Person',
    company: 'Co',
    externalId: `${prefix}-${i}`,
    shareThumbnailUrl: PROVIDED,
  }));

/** Helpers bound to one app. */
function clientFor(app: () => TestApp) {
  const get = (who: Tenant, path: string) => request(app().server).get(path).set('x-api-key', who.key);
  const post = (who: Tenant, body: unknown, idempotencyKey: string | null = randomUUID()) => {
    const req = request(app().server).post(LINKS).set('x-api-key', who.key);
    return (idempotencyKey === null ? req : req.set('Idempotency-Key', idempotencyKey)).send(body as object);
  };
  const start = async (who: Tenant, body: unknown): Promise<Job> =>
    ((await post(who, body).expect(202)).body as JobEnvelope).job;
  const getJob = async (who: Tenant, id: string): Promise<Job> =>
    (await get(who, `${JOBS}/${id}`).expect(200)).body as Job;
  const waitForJob = (who: Tenant, id: string, timeoutMs = 30000): Promise<Job> =>
    readUntil(
      () => getJob(who, id),
      (job) => TERMINAL.includes(job.status),
      timeoutMs,
    );
  const itemsOf = async (who: Tenant, id: string, query = '?limit=200') =>
    (await get(who, `${JOBS}/${id}/items${query}`).expect(200)).body as JobItemPage;
  const getLink = async (who: Tenant, id: string): Promise<Link> =>
    (await get(who, `${LINKS}/${id}`).expect(200)).body as Link;
  const cancel = (who: Tenant, id: string) =>
    request(app().server).post(`${JOBS}/${id}/cancel`).set('x-api-key', who.key);
  const retry = (who: Tenant, id: string) =>
    request(app().server).post(`${JOBS}/${id}/retry`).set('x-api-key', who.key);
  const campaigns = async (who: Tenant): Promise<Campaign[]> =>
    ((await get(who, CAMPAIGNS).expect(200)).body as CampaignPage).campaigns;
  const listJobs = async (who: Tenant, query = '') => (await get(who, `${JOBS}${query}`).expect(200)).body as JobPage;
  return { get, post, start, getJob, waitForJob, itemsOf, getLink, cancel, retry, campaigns, listJobs };
}

/** A 429 with the figures of the limit that refused it; `remaining` is what that limit still has. */
function expectLimited(res: Response, limit: number, remaining = 0): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual(LIMITED);
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
}

describe('custom link jobs', () => {
  let t: TestApp;
  const c = clientFor(() => t);

  beforeAll(async () => {
    t = await createTestApp(FAST_APP);
  });
  afterAll(() => t.close());

  const tenant = () => t.createTenant(['custom_links:read', 'custom_links:write']);

  describe('create', () => {
    it('answers 202 {job} with Location, and the job completes with every link created', async () => {
      const who = await tenant();
      const before = Date.now();
      const res = await c.post(who, { links: provided(3) }).expect(202);
      expect(Object.keys(res.body as object)).toEqual(['job']);
      const job = (res.body as JobEnvelope).job;
      expect(Object.keys(job).sort()).toEqual(JOB_KEYS);
      expect(job).toMatchObject({
        id: expect.stringMatching(UUID),
        type: 'create',
        totalItems: 3,
        createdAt: expect.stringMatching(ISO_MS_Z),
        updatedAt: expect.stringMatching(ISO_MS_Z),
        campaignId: null,
        parentJobId: null,
        failedCount: 0,
        cancelRequested: false,
      });
      expect(TERMINAL).not.toContain(job.status);
      expect(Date.parse(job.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(res.headers.location).toBe(`${JOBS}/${job.id}`);

      const done = await c.waitForJob(who, job.id);
      expect(done).toMatchObject({
        id: job.id,
        type: 'create',
        status: 'completed',
        totalItems: 3,
        createdCount: 3,
        failedCount: 0,
        progress: 1,
        pollAfterSeconds: null,
        thumbnailProvidedCount: 3,
        thumbnailQueuedCount: 0,
        thumbnailProcessingCount: 0,
        thumbnailGeneratedCount: 0,
        cancelRequested: false,
        createdAt: job.createdAt,
      });
      expect(done.startedAt).toMatch(ISO_MS_Z);
      expect(done.completedAt).toMatch(ISO_MS_Z);
      expect(Date.parse(done.completedAt as string)).toBeGreaterThanOrEqual(Date.parse(done.startedAt as string));
      expect(Date.parse(done.startedAt as string)).toBeGreaterThanOrEqual(Date.parse(done.createdAt));

      const items = await c.itemsOf(who, job.id);
      expect(items).toMatchObject({ total: 3, limit: 200, offset: 0 });
      expect(items.items).toEqual(
        [0, 1, 2].map((index) => ({
          index,
          status: 'created',
          customLinkId: expect.stringMatching(UUID),
          externalId: `ext-${index}`,
          error: null,
        })),
      );
      const links = await Promise.all(items.items.map((i) => c.getLink(who, i.customLinkId as string)));
      expect(links.map((l) => l.externalId)).toEqual(['ext-0', 'ext-1', 'ext-2']);
      expect(links.map((l) => l.jobId)).toEqual([job.id, job.id, job.id]);
      expect(links.map((l) => l.thumbnailStatus)).toEqual(['provided', 'provided', 'provided']);
      expect(links.map((l) => l.shareThumbnailUrl)).toEqual([PROVIDED, PROVIDED, PROVIDED]);
      expect(links.every((l) => l.active)).toBe(true);
      expect(new Set(links.map((l) => l.id)).size).toBe(3);
    });

    it('gives every link url {PUBLIC_BASE_URL}/l/{slug} with distinct, unguessable slugs', async () => {
      const who = await tenant();
      const job = await c.start(who, { links: provided(20) });
      await c.waitForJob(who, job.id);
      const { items } = await c.itemsOf(who, job.id);
      const links = await Promise.all(items.map((i) => c.getLink(who, i.customLinkId as string)));
      const slugs = links.map((l) => {
        expect(l.url.startsWith(`${PUBLIC_BASE_URL}/l/`)).toBe(true);
        return l.url.slice(`${PUBLIC_BASE_URL}/l/`.length);
      });
      for (const slug of slugs) expect(slug).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(new Set(slugs).size).toBe(20);
      // Random, not time- or counter-ordered: no two slugs share their first 8 characters.
      expect(new Set(slugs.map((s) => s.slice(0, 8))).size).toBe(20);
      expect(slugs.some((s) => s.toLowerCase().includes('person') || s.toLowerCase().includes('ext-'))).toBe(false);
      for (const slug of slugs) await request(t.server).get(`/l/${slug}`).redirects(0).expect(302);
    });

    it('defaults displayName to "First Last, Company", else the email; keeps a given displayName', async () => {
      const who = await tenant();
      const job = await c.start(who, {
        links: [
          { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines', shareThumbnailUrl: PROVIDED },
          { email: 'grace@navy.mil', shareThumbnailUrl: PROVIDED },
          {
            displayName: 'Alan at Bletchley',
            firstName: 'Alan',
            lastName: 'Turing',
            company: 'GC&CS',
            shareThumbnailUrl: PROVIDED,
          },
        ],
      });
      expect((await c.waitForJob(who, job.id)).status).toBe('completed');
      const { items } = await c.itemsOf(who, job.id);
      const links = await Promise.all(items.map((i) => c.getLink(who, i.customLinkId as string)));
      expect(links.map((l) => l.displayName)).toEqual([
        'Ada Lovelace, Analytical Engines',
        'grace@navy.mil',
        'Alan at Bletchley',
      ]);
      expect(links.map((l) => l.externalId)).toEqual([null, null, null]);
      expect(items.map((i) => i.externalId)).toEqual([null, null, null]);
    });

    it('renders cards: no logo → generated, an unusable logo → fallback with logo_fetch_failed, provided stays provided', async () => {
      const who = await tenant();
      const job = await c.start(who, {
        links: [
          { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical' },
          { firstName: 'Grace', company: 'Navy', prospectLogoUrl: 'http://127.0.0.1:1/logo.png' },
          { firstName: 'Alan', company: 'Bletchley', shareThumbnailUrl: PROVIDED },
        ],
      });
      const done = await c.waitForJob(who, job.id);
      expect(done).toMatchObject({
        status: 'completed',
        createdCount: 3,
        thumbnailGeneratedCount: 1,
        thumbnailFallbackCount: 1,
        thumbnailProvidedCount: 1,
        thumbnailQueuedCount: 0,
        thumbnailProcessingCount: 0,
        thumbnailFailedCount: 0,
        progress: 1,
      });
      const { items } = await c.itemsOf(who, job.id);
      const [generated, fallback, given] = await Promise.all(
        items.map((i) => c.getLink(who, i.customLinkId as string)),
      );
      expect(generated.thumbnailStatus).toBe('generated');
      expect(generated.thumbnailError).toBeNull();
      expect(generated.shareThumbnailUrl).toMatch(
        new RegExp(`^${PUBLIC_BASE_URL.replace(/\./g, '\\.')}/thumbnails/${generated.id}/[0-9a-f]{64}\\.png$`),
      );
      expect(fallback.thumbnailStatus).toBe('fallback');
      expect(fallback.thumbnailError).toEqual({
        code: 'logo_fetch_failed',
        message: 'The prospect logo could not be fetched.',
      });
      expect(fallback.shareThumbnailUrl).toMatch(new RegExp(`/thumbnails/${fallback.id}/[0-9a-f]{64}\\.png$`));
      expect(given).toMatchObject({ thumbnailStatus: 'provided', shareThumbnailUrl: PROVIDED, thumbnailError: null });

      const png = await request(t.server)
        .get(new URL(generated.shareThumbnailUrl as string).pathname)
        .buffer(true)
        .expect(200);
      expect(png.headers['content-type']).toMatch(/^image\/png/);
      expect(png.headers['cache-control']).toBe('public, max-age=300');
    });

    it('requires an Idempotency-Key (400) and replays the same job for the same key without a second job', async () => {
      const who = await tenant();
      const body = { links: provided(2) };
      await c.post(who, body, null).expect(400, KEY_REQUIRED);
      expect((await c.listJobs(who)).total).toBe(0);

      const key = randomUUID();
      const first = await c.post(who, body, key).expect(202);
      const replay = await c.post(who, body, key).expect(202);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.location).toBe(first.headers.location);

      const jobId = (first.body as JobEnvelope).job.id;
      await c.waitForJob(who, jobId);
      const jobs = await c.listJobs(who);
      expect(jobs.total).toBe(1);
      expect(jobs.jobs.map((j) => j.id)).toEqual([jobId]);
      expect((await c.itemsOf(who, jobId)).total).toBe(2);

      // The same key with another body conflicts and creates nothing.
      await c.post(who, { links: provided(3) }, key).expect(409, CONFLICT);
      expect((await c.listJobs(who)).total).toBe(1);
    });

    it('validates the body: 0 and 501 links, no links, field bounds at their index, campaign and header', async () => {
      const who = await tenant();
      const empty = await c.post(who, { links: [] }).expect(422);
      expect(detailOf(empty)).toEqual([
        {
          type: 'too_short',
          loc: ['body', 'links'],
          msg: 'List should have at least 1 item after validation, not 0',
          input: [],
          ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
        },
      ]);

      const many = await c.post(who, { links: provided(501) }).expect(422);
      expect(detailOf(many)).toHaveLength(1);
      expect(detailOf(many)[0]).toMatchObject({
        type: 'too_long',
        loc: ['body', 'links'],
        msg: 'List should have at most 500 items after validation, not 501',
        ctx: { field_type: 'List', max_length: 500, actual_length: 501 },
      });

      const missing = await c.post(who, { campaign: { name: 'X' } }).expect(422);
      expect(detailOf(missing)).toEqual([
        { type: 'missing', loc: ['body', 'links'], msg: 'Field required', input: { campaign: { name: 'X' } } },
      ]);

      const links = provided(3);
      const bad = await c
        .post(who, {
          links: [links[0], { ...links[1], externalId: 'x'.repeat(256) }, { ...links[2], phone: '5'.repeat(51) }],
        })
        .expect(422);
      expect(detailOf(bad)).toEqual([
        {
          type: 'string_too_long',
          loc: ['body', 'links', 1, 'externalId'],
          msg: 'String should have at most 255 characters',
          input: 'x'.repeat(256),
          ctx: { max_length: 255 },
        },
        {
          type: 'string_too_long',
          loc: ['body', 'links', 2, 'phone'],
          msg: 'String should have at most 50 characters',
          input: '5'.repeat(51),
          ctx: { max_length: 50 },
        },
      ]);

      const badCampaign = await c.post(who, { links: provided(1), campaign: { name: '' } }).expect(422);
      expect(detailOf(badCampaign)[0]).toMatchObject({
        type: 'string_too_short',
        loc: ['body', 'campaign', 'name'],
        ctx: { min_length: 1 },
      });

      const header = await c.post(who, { links: provided(1) }, 'k'.repeat(256)).expect(422);
      expect(detailOf(header)[0]).toMatchObject({ type: 'string_too_long', loc: ['header', 'idempotency-key'] });

      expect((await c.listJobs(who)).total).toBe(0);

      // 500 is allowed.
      const max = await c.start(who, { links: provided(500) });
      expect(max.totalItems).toBe(500);
      expect((await c.waitForJob(who, max.id, 60000)).createdCount).toBe(500);
    }, 90000);

    it('files links in a campaign by name: created once, then reused case-insensitively', async () => {
      const who = await tenant();
      const name = unique('Imported folder');
      const first = await c.start(who, { links: provided(2, 'a'), campaign: { name } });
      await c.waitForJob(who, first.id);
      const [campaign] = await c.campaigns(who);
      expect(campaign).toMatchObject({ name, customLinkCount: 2 });
      expect((await c.getJob(who, first.id)).campaignId).toBe(campaign.id);

      const second = await c.start(who, { links: provided(1, 'b'), campaign: { name: `  ${name.toUpperCase()} ` } });
      expect((await c.waitForJob(who, second.id)).campaignId).toBe(campaign.id);
      const all = await c.campaigns(who);
      expect(all).toHaveLength(1);
      expect(all[0]).toMatchObject({ id: campaign.id, customLinkCount: 3 });
      const { items } = await c.itemsOf(who, second.id);
      expect((await c.getLink(who, items[0].customLinkId as string)).campaignId).toBe(campaign.id);

      // By id.
      const third = await c.start(who, { links: provided(1, 'c'), campaign: { id: campaign.id } });
      expect(third.campaignId).toBe(campaign.id);
      expect((await c.waitForJob(who, third.id)).status).toBe('completed');
      expect((await c.campaigns(who))[0].customLinkCount).toBe(4);
    });

    it('a job filed in an unknown campaign fails every item with campaign_not_found and ends failed', async () => {
      const [who, other] = [await tenant(), await tenant()];
      const foreign = (
        await request(t.server)
          .post(CAMPAIGNS)
          .set('x-api-key', other.key)
          .send({ name: unique('Foreign') })
          .expect(201)
      ).body as Campaign;

      for (const id of [UNKNOWN_ID, foreign.id]) {
        const job = await c.start(who, { links: provided(2), campaign: { id } });
        const done = await c.waitForJob(who, job.id);
        expect(done).toMatchObject({
          status: 'failed',
          createdCount: 0,
          failedCount: 2,
          totalItems: 2,
          pollAfterSeconds: null,
          progress: 1,
        });
        expect(done.completedAt).toMatch(ISO_MS_Z);
        const { items } = await c.itemsOf(who, job.id);
        expect(items).toEqual(
          [0, 1].map((index) => ({
            index,
            status: 'failed',
            customLinkId: null,
            externalId: `ext-${index}`,
            error: { code: 'campaign_not_found', message: expect.any(String) },
          })),
        );
      }
      expect(((await c.get(who, LINKS).expect(200)).body as LinkPage).total).toBe(0);
      expect((await c.campaigns(other))[0].customLinkCount).toBe(0);
    });

    it('needs custom_links:write to create', async () => {
      const who = await tenant();
      const reader = { ...who, key: await t.createKey(who.organizationId, ['custom_links:read']) };
      await c
        .post(reader, { links: provided(1) })
        .expect(403, { detail: 'API key does not include the required scope.' });
      expect((await c.listJobs(who)).total).toBe(0);
    });
  });

  describe('poll', () => {
    it('while not terminal: Retry-After and pollAfterSeconds; ETag with If-None-Match → 304; then cancel ends it cancelled', async () => {
      const who = await tenant();
      // Rendered cards keep the job busy for a while.
      const links = Array.from({ length: 200 }, (_, i) => ({
        firstName: `Busy${i}`,
        company: 'Slow Co',
        externalId: `busy-${i}`,
      }));
      const job = await c.start(who, { links });

      const running = await c.get(who, `${JOBS}/${job.id}`).expect(200);
      const body = running.body as Job;
      expect(TERMINAL).not.toContain(body.status);
      expect(Number.isInteger(body.pollAfterSeconds)).toBe(true);
      expect(body.pollAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(running.headers['retry-after']).toMatch(/^\d+$/);
      expect(Number(running.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(body.progress).toBeGreaterThanOrEqual(0);
      expect(body.progress).toBeLessThan(1);
      const runningEtag = running.headers.etag as string;
      expect(runningEtag).toBeTruthy();

      const cancelled = await c.cancel(who, job.id).expect(200);
      expect(cancelled.body).toMatchObject({ id: job.id, cancelRequested: true });
      expect(Object.keys(cancelled.body as object).sort()).toEqual(JOB_KEYS);

      const done = await c.waitForJob(who, job.id);
      expect(done).toMatchObject({ status: 'cancelled', cancelRequested: true, pollAfterSeconds: null });
      expect(done.completedAt).toMatch(ISO_MS_Z);

      const final = await c.get(who, `${JOBS}/${job.id}`).expect(200);
      expect(final.headers['retry-after']).toBeUndefined();
      const etag = final.headers.etag as string;
      expect(etag).toBeTruthy();
      expect(etag).not.toBe(runningEtag);
      const notModified = await c.get(who, `${JOBS}/${job.id}`).set('If-None-Match', etag).expect(304);
      expect(notModified.text ?? '').toBe('');
      expect(notModified.body).toEqual({});
      await c.get(who, `${JOBS}/${job.id}`).set('If-None-Match', runningEtag).expect(200);

      // Created links stay; the rest are cancelled items; renders still queued were cancelled.
      const { items, total } = await c.itemsOf(who, job.id);
      expect(total).toBe(200);
      const created = items.filter((i) => i.status === 'created');
      const rest = items.filter((i) => i.status !== 'created');
      expect(rest.every((i) => i.status === 'cancelled' && i.customLinkId === null)).toBe(true);
      expect(created.length).toBe(done.createdCount);
      expect(done.failedCount).toBe(0);
      const listed = (await c.get(who, `${LINKS}?limit=200`).expect(200)).body as LinkPage;
      expect(listed.total).toBe(created.length);
      expect(listed.customLinks.map((l) => l.id).sort()).toEqual(created.map((i) => i.customLinkId).sort());
      for (const link of listed.customLinks)
        expect(['generated', 'fallback', 'failed', 'cancelled']).toContain(link.thumbnailStatus);
      expect(done.thumbnailQueuedCount + done.thumbnailProcessingCount).toBe(0);

      // Terminal: cancel is a 409.
      await c.cancel(who, job.id).expect(409, CONFLICT);

      // A retry covers exactly the cancelled items, if any.
      if (rest.length > 0) {
        const retried = await c.retry(who, job.id).expect(202);
        const child = (retried.body as JobEnvelope).job;
        expect(child).toMatchObject({ parentJobId: job.id, totalItems: rest.length, type: 'create' });
        await c.cancel(who, child.id); // keep the machine quiet; outcome not asserted here
        await c.waitForJob(who, child.id);
      } else {
        await c.retry(who, job.id).expect(409, CONFLICT);
      }
    }, 90000);

    it("answers 404 for an unknown job and another organization's job, 422 for a bad id", async () => {
      const [who, other] = [await tenant(), await tenant()];
      const theirs = await c.start(other, { links: provided(1) });
      await c.get(who, `${JOBS}/${UNKNOWN_ID}`).expect(404, JOB_NOT_FOUND);
      await c.get(who, `${JOBS}/${theirs.id}`).expect(404, JOB_NOT_FOUND);
      await c.get(who, `${JOBS}/${theirs.id}/items`).expect(404, JOB_NOT_FOUND);
      await c.cancel(who, theirs.id).expect(404, JOB_NOT_FOUND);
      await c.retry(who, theirs.id).expect(404, JOB_NOT_FOUND);
      const bad = await c.get(who, `${JOBS}/nope`).expect(422);
      expect(detailOf(bad)[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'job_id'], input: 'nope' });
      expect((await c.waitForJob(other, theirs.id)).cancelRequested).toBe(false);
    });

    it('pages items with limit and offset in index order', async () => {
      const who = await tenant();
      const job = await c.start(who, { links: provided(5) });
      await c.waitForJob(who, job.id);
      const page = await c.itemsOf(who, job.id, '?limit=2&offset=1');
      expect(page).toMatchObject({ total: 5, limit: 2, offset: 1 });
      expect(page.items.map((i) => [i.index, i.externalId])).toEqual([
        [1, 'ext-1'],
        [2, 'ext-2'],
      ]);
      const defaults = await c.itemsOf(who, job.id, '');
      expect(defaults).toMatchObject({ total: 5, limit: 50, offset: 0 });
      expect(defaults.items.map((i) => i.index)).toEqual([0, 1, 2, 3, 4]);
      const bad = await c.get(who, `${JOBS}/${job.id}/items?limit=201`).expect(422);
      expect(detailOf(bad)[0]).toMatchObject({ type: 'less_than_equal', loc: ['query', 'limit'] });
    });
  });

  describe('list', () => {
    it('lists newest first with status (comma list) and campaign_id filters', async () => {
      const who = await tenant();
      const name = unique('Listed');
      const filed = await c.start(who, { links: provided(1), campaign: { name } });
      const filedDone = await c.waitForJob(who, filed.id);
      const failed = await c.start(who, { links: provided(1), campaign: { id: UNKNOWN_ID } });
      await c.waitForJob(who, failed.id);
      const plain = await c.start(who, { links: provided(2) });
      await c.waitForJob(who, plain.id);

      const all = await c.listJobs(who);
      expect(all).toMatchObject({ total: 3, limit: 50, offset: 0 });
      expect(all.jobs.map((j) => j.id)).toEqual([plain.id, failed.id, filed.id]);
      expect(Object.keys(all.jobs[0]).sort()).toEqual(JOB_KEYS);

      expect((await c.listJobs(who, '?status=completed')).jobs.map((j) => j.id)).toEqual([plain.id, filed.id]);
      expect((await c.listJobs(who, '?status=failed')).jobs.map((j) => j.id)).toEqual([failed.id]);
      expect((await c.listJobs(who, '?status=failed,completed')).jobs.map((j) => j.id)).toEqual([
        plain.id,
        failed.id,
        filed.id,
      ]);
      expect((await c.listJobs(who, '?status=queued,processing,cancelled')).total).toBe(0);
      expect((await c.listJobs(who, `?campaign_id=${filedDone.campaignId as string}`)).jobs.map((j) => j.id)).toEqual([
        filed.id,
      ]);
      expect((await c.listJobs(who, `?campaign_id=${filedDone.campaignId as string}&status=failed`)).total).toBe(0);
      const page = await c.listJobs(who, '?limit=1&offset=1');
      expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
      expect(page.jobs.map((j) => j.id)).toEqual([failed.id]);

      const bad = await c.get(who, `${JOBS}?status=completed,done`).expect(422);
      expect(detailOf(bad)[0].loc).toEqual(['query', 'status']);
      const badCampaign = await c.get(who, `${JOBS}?campaign_id=nope`).expect(422);
      expect(detailOf(badCampaign)[0]).toMatchObject({ type: 'uuid_parsing', loc: ['query', 'campaign_id'] });

      // Another organization sees none of them.
      expect((await c.listJobs(await tenant())).total).toBe(0);
    });
  });

  describe('retry', () => {
    it('retries exactly the failed items as a new job with parentJobId; a completed job cannot be retried', async () => {
      const who = await tenant();
      const parent = await c.start(who, { links: provided(3), campaign: { id: UNKNOWN_ID } });
      expect((await c.waitForJob(who, parent.id)).status).toBe('failed');

      const res = await c.retry(who, parent.id).expect(202);
      const child = (res.body as JobEnvelope).job;
      expect(Object.keys(child).sort()).toEqual(JOB_KEYS);
      expect(child).toMatchObject({ type: 'create', parentJobId: parent.id, totalItems: 3 });
      expect(child.id).not.toBe(parent.id);
      if (res.headers.location !== undefined) expect(res.headers.location).toBe(`${JOBS}/${child.id}`);
      const childDone = await c.waitForJob(who, child.id);
      const childItems = (await c.itemsOf(who, child.id)).items;
      expect(childItems.map((i) => i.externalId)).toEqual(['ext-0', 'ext-1', 'ext-2']);
      // Same unknown campaign, so it fails the same way.
      expect(childDone.status).toBe('failed');
      expect(childItems.every((i) => i.error?.code === 'campaign_not_found')).toBe(true);
      // The parent is unchanged.
      expect(await c.getJob(who, parent.id)).toMatchObject({ status: 'failed', failedCount: 3 });
      expect((await c.listJobs(who)).jobs.map((j) => j.id)).toEqual([child.id, parent.id]);

      const completed = await c.start(who, { links: provided(1) });
      expect((await c.waitForJob(who, completed.id)).status).toBe('completed');
      await c.retry(who, completed.id).expect(409, CONFLICT);
      await c.cancel(who, completed.id).expect(409, CONFLICT);
      expect((await c.listJobs(who)).total).toBe(3);
    });
  });
});

describe('link creation units (docs/api.md §8.4)', () => {
  let t: TestApp;
  const c = clientFor(() => t);

  beforeAll(async () => {
    t = await createTestApp({ ...FAST_APP, LINK_CREATION_UNITS_PER_HOUR: '10' });
  });
  afterAll(() => t.close());

  const tenant = () => t.createTenant(['custom_links:read', 'custom_links:write']);

  it('refuses a request for more links than the hourly units left with 429; 10 fit', async () => {
    const who = await tenant();
    // 11 units asked, 10 left: refused, and the 10 are still there.
    expectLimited(await c.post(who, { links: provided(11) }), 10, 10);
    expect((await c.listJobs(who)).total).toBe(0);

    const job = await c.start(who, { links: provided(10) });
    expect((await c.waitForJob(who, job.id)).createdCount).toBe(10);
    expectLimited(await c.post(who, { links: provided(1) }), 10);
    expect((await c.listJobs(who)).total).toBe(1);

    // Another organization has its own units.
    const other = await tenant();
    await c.post(other, { links: provided(10) }).expect(202);
  });

  it('refunds the units of failed items', async () => {
    const who = await tenant();
    const failing = await c.start(who, { links: provided(10), campaign: { id: UNKNOWN_ID } });
    expect((await c.waitForJob(who, failing.id)).status).toBe('failed');

    const job = await c.start(who, { links: provided(10) });
    expect((await c.waitForJob(who, job.id)).status).toBe('completed');
    expectLimited(await c.post(who, { links: provided(1) }), 10);
  });

  it('a replayed request does not spend units again', async () => {
    const who = await tenant();
    const key = randomUUID();
    const body = { links: provided(6) };
    const first = await c.post(who, body, key).expect(202);
    await c.post(who, body, key).expect(202);
    await c.waitForJob(who, (first.body as JobEnvelope).job.id);
    await c.post(who, { links: provided(4) }).expect(202);
  });
});

describe('link-mutation limit (docs/api.md §8.3)', () => {
  let t: TestApp;
  const c = clientFor(() => t);
  const LIMIT = 6;

  beforeAll(async () => {
    t = await createTestApp({ ...FAST_APP, LINK_MUTATIONS_PER_MINUTE: String(LIMIT) });
  });
  afterAll(() => t.close());

  it('counts creations, PATCHes, bulk actions and retries; the next cancel, retry, PATCH, action or creation is 429', async () => {
    const who = await t.createTenant(['custom_links:read', 'custom_links:write']);
    const patch = (id: string, body: object) =>
      request(t.server).patch(`${LINKS}/${id}`).set('x-api-key', who.key).send(body);
    const action = (body: object) => request(t.server).post(`${LINKS}/actions`).set('x-api-key', who.key).send(body);

    const created = await c.start(who, { links: provided(1) }); // 1
    await c.waitForJob(who, created.id);
    const linkId = (await c.itemsOf(who, created.id)).items[0].customLinkId as string;
    await patch(linkId, { context: 'one' }).expect(200); // 2
    await action({ action: 'deactivate', customLinkIds: [linkId] }).expect(200); // 3
    await action({ action: 'activate', customLinkIds: [linkId] }).expect(200); // 4
    const failing = await c.start(who, { links: provided(1), campaign: { id: UNKNOWN_ID } }); // 5
    await c.waitForJob(who, failing.id);
    // Reads are free.
    for (let i = 0; i < 3; i++) await c.get(who, LINKS).expect(200);
    const retried = (await c.retry(who, failing.id).expect(202)).body as JobEnvelope; // 6
    await c.waitForJob(who, retried.job.id);

    expectLimited(await c.cancel(who, retried.job.id), LIMIT);
    expectLimited(await c.retry(who, retried.job.id), LIMIT);
    expectLimited(await patch(linkId, { context: 'two' }), LIMIT);
    expectLimited(await action({ action: 'deactivate', customLinkIds: [linkId] }), LIMIT);
    expectLimited(await c.post(who, { links: provided(1) }), LIMIT);

    const link = await c.getLink(who, linkId);
    expect(link).toMatchObject({ context: 'one', active: true });
    expect((await c.listJobs(who)).total).toBe(3);

    const other = await t.createTenant(['custom_links:read', 'custom_links:write']);
    await c.post(other, { links: provided(1) }).expect(202);
  });
});
