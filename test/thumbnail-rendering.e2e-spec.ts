import { Resvg } from '@resvg/resvg-js';
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { RENDER_WORKER } from '../src/modules/thumbnails/card-renderer';
import { LogoFetcher } from '../src/modules/thumbnails/rendering/logo-fetcher';
import type { Job, JobEnvelope, JobItemPage, Link, LinkUpdate } from './support/api-types';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { createTestApp, eventually, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * Share-card rendering (issue 17, docs/api.md §12.6): cards are drawn on worker threads within
 * THUMBNAIL_RENDER_TIMEOUT_MS, so a drawing that never ends neither blocks the worker's event loop
 * nor the job, and ends `failed` with `render_timeout`; logos are checked before decoding (frame
 * size); thumbnailError holds a fixed text per code; a new card deletes the ones it supersedes, a
 * provided card deletes the rendered ones, and a deactivated link's card is not served.
 */

jest.setTimeout(120_000);

const LINKS = '/api/v1/custom-links';
const JOBS = '/api/v1/custom-link-jobs';
const PROVIDED = 'https://cdn.example.com/card.png';
const TERMINAL = ['completed', 'completed_with_errors', 'cancelled', 'failed'];
const CARD_PATH = /^\/thumbnails\/[0-9a-f-]{36}\/[0-9a-f]{64}\.png$/;

function client(app: () => TestApp) {
  const get = (who: Tenant, path: string) => request(app().server).get(path).set('x-api-key', who.key);
  const start = async (who: Tenant, links: Record<string, unknown>[]): Promise<Job> =>
    (
      (
        await request(app().server)
          .post(LINKS)
          .set('x-api-key', who.key)
          .set('Idempotency-Key', randomUUID())
          .send({ links })
          .expect(202)
      ).body as JobEnvelope
    ).job;
  const getJob = async (who: Tenant, id: string): Promise<Job> =>
    (await get(who, `${JOBS}/${id}`).expect(200)).body as Job;
  const waitForJob = (who: Tenant, id: string): Promise<Job> =>
    readUntil(
      () => getJob(who, id),
      (job) => TERMINAL.includes(job.status),
      60_000,
    );
  const getLink = async (who: Tenant, id: string): Promise<Link> =>
    (await get(who, `${LINKS}/${id}`).expect(200)).body as Link;
  const linksOf = async (who: Tenant, jobId: string): Promise<Link[]> => {
    const { items } = (await get(who, `${JOBS}/${jobId}/items?limit=200`).expect(200)).body as JobItemPage;
    return Promise.all(items.map((item) => getLink(who, item.customLinkId!)));
  };
  /** Creates links, waits for their job (renders included) and returns them in input order. */
  const createLinks = async (who: Tenant, links: Record<string, unknown>[]): Promise<Link[]> => {
    const job = await start(who, links);
    expect((await waitForJob(who, job.id)).status).toBe('completed');
    return linksOf(who, job.id);
  };
  const patch = (who: Tenant, id: string, body: Record<string, unknown>) =>
    request(app().server)
      .patch(`${LINKS}/${id}`)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send(body);
  const card = (link: Link) => request(app().server).get(new URL(link.shareThumbnailUrl as string).pathname);
  return { start, getJob, waitForJob, getLink, linksOf, createLinks, patch, card };
}

describe('a drawing that never ends', () => {
  const TIMEOUT_MS = 5000;
  let t: TestApp;
  const c = client(() => t);
  // Slot 0: iterations of the stub's endless loop; slot 1: drawings it started.
  const counters = new Int32Array(new SharedArrayBuffer(8));
  const stub = `import { parentPort, workerData } from 'node:worker_threads';
    const counters = new Int32Array(workerData);
    parentPort.on('message', () => { Atomics.add(counters, 1, 1); for (;;) Atomics.add(counters, 0, 1); });`;

  let isolated: IsolatedServices;

  beforeAll(async () => {
    // Queues of its own: on the run's shared queues its stub thread drew other specs' cards (and
    // theirs this spec's), so its link could still be queued while the stub spun on another.
    isolated = await isolatedServices('render_timeout');
    t = await createTestApp(
      {
        ...isolated.env,
        APP_ROLE: 'all',
        RATE_LIMIT_PER_MINUTE: '100000',
        LINK_MUTATIONS_PER_MINUTE: '100000',
        THUMBNAIL_RENDER_TIMEOUT_MS: String(TIMEOUT_MS),
        THUMBNAIL_RENDER_THREADS: '1',
      },
      {
        overrides: [
          {
            provide: RENDER_WORKER,
            useValue: {
              script: new URL(`data:text/javascript,${encodeURIComponent(stub)}`),
              workerData: counters.buffer,
            },
          },
        ],
      },
    );
  });
  afterAll(async () => {
    await t?.close();
    await isolated?.drop();
  });

  it('leaves the worker free meanwhile, is terminated at THUMBNAIL_RENDER_TIMEOUT_MS and ends failed with render_timeout', async () => {
    const who = await t.createTenant();
    const requestedAt = Date.now();
    const stuck = await c.start(who, [{ firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical' }]);
    await eventually(async () => Atomics.load(counters, 1) === 1, 30_000, 10);
    const drawingSince = Date.now();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);

    // While the thread spins: timers fire, requests are answered and another job runs to its end.
    const other = await c.start(who, [{ firstName: 'Grace', shareThumbnailUrl: PROVIDED }]);
    expect((await c.waitForJob(who, other.id)).status).toBe('completed');
    const [link] = await c.linksOf(who, stuck.id);
    expect(link.thumbnailStatus).toBe('processing');
    expect(Date.now() - drawingSince).toBeLessThan(TIMEOUT_MS);
    expect(ticks).toBeGreaterThanOrEqual(3);
    clearInterval(timer);

    const done = await c.waitForJob(who, stuck.id);
    // The deadline runs from when the thread got the card (after the request, before it was seen spinning).
    expect(Date.now() - requestedAt).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(Date.now() - drawingSince).toBeLessThan(TIMEOUT_MS + 5000);
    expect(done).toMatchObject({ status: 'completed', thumbnailFailedCount: 1 });
    expect(await c.getLink(who, link.id)).toMatchObject({
      thumbnailStatus: 'failed',
      thumbnailError: { code: 'render_timeout', message: 'The share card took too long to render.' },
      shareThumbnailUrl: null,
      thumbnailAttempts: 1,
    });
    // The thread was terminated: its loop no longer counts.
    let last = -1;
    await eventually(
      async () => {
        const now = Atomics.load(counters, 0);
        const stopped = now === last;
        last = now;
        return stopped;
      },
      5000,
      100,
    );
  });
});

describe('cards drawn by the render worker', () => {
  let t: TestApp;
  let logos: HttpServer;
  let logoBase = '';
  const c = client(() => t);

  /** A solid PNG drawn by resvg. */
  const solidPng = (color: string) =>
    new Resvg(
      `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="${color}"/></svg>`,
      { font: { loadSystemFonts: false } },
    )
      .render()
      .asPng();
  const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
  // A 1x1 GIF screen holding a 60000x60000 frame: decoding it would take ~14 GB.
  const gifBomb = Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    u16(1),
    u16(1),
    Buffer.from([0, 0, 0]),
    Buffer.from([0x2c]),
    u16(0),
    u16(0),
    u16(60000),
    u16(60000),
    Buffer.from([0, 2, 1, 0, 0, 0x3b]),
  ]);

  beforeAll(async () => {
    logos = createServer((req, res) => {
      if (req.url === '/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(solidPng('#ff0000'));
      else if (req.url === '/bomb.gif') res.writeHead(200, { 'content-type': 'image/gif' }).end(gifBomb);
      else if (req.url === '/upstream-error')
        res.writeHead(503, { 'content-type': 'text/plain' }).end('backend 10.9.8.7:5432 refused: connection reset');
      else if (req.url === '/to-internal')
        res.writeHead(302, { location: 'http://10.9.8.7:8443/admin/logo.png' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => logos.listen(0, '127.0.0.1', resolve));
    logoBase = `http://127.0.0.1:${(logos.address() as AddressInfo).port}`;
    t = await createTestApp(
      {
        APP_ROLE: 'all',
        RATE_LIMIT_PER_MINUTE: '100000',
        LINK_MUTATIONS_PER_MINUTE: '100000',
        PUBLIC_BASE_URL: 'https://go.links.test',
      },
      // This server's loopback address counts as public here; everything else follows the real policy.
      {
        overrides: [
          { provide: LogoFetcher, useValue: new LogoFetcher({ isAllowedAddress: (ip) => ip === '127.0.0.1' }) },
        ],
      },
    );
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => logos.close(resolve));
  });

  it('draws a logo; refuses a GIF frame bomb before decoding it; shows fixed texts, never upstream details', async () => {
    const who = await t.createTenant();
    const [withLogo, bomb, upstream, redirected] = await c.createLinks(who, [
      { firstName: 'Ada', company: 'Analytical', prospectLogoUrl: `${logoBase}/logo.png` },
      { firstName: 'Grace', company: 'Navy', prospectLogoUrl: `${logoBase}/bomb.gif` },
      { firstName: 'Alan', company: 'Bletchley', prospectLogoUrl: `${logoBase}/upstream-error` },
      { firstName: 'Edsger', company: 'Eindhoven', prospectLogoUrl: `${logoBase}/to-internal` },
    ]);
    expect(withLogo).toMatchObject({ thumbnailStatus: 'generated', thumbnailError: null });
    const png = (await c.card(withLogo).buffer(true).expect(200)).body as Buffer;
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);

    expect(bomb).toMatchObject({
      thumbnailStatus: 'fallback',
      thumbnailError: {
        code: 'logo_invalid_image',
        message: 'The prospect logo is not a usable PNG, JPEG or GIF image.',
      },
    });
    await c.card(bomb).expect(200);
    for (const link of [upstream, redirected]) {
      expect(link).toMatchObject({
        thumbnailStatus: 'fallback',
        thumbnailError: { code: 'logo_fetch_failed', message: 'The prospect logo could not be fetched.' },
      });
    }
    const errors = JSON.stringify([bomb, upstream, redirected].map((link) => link.thumbnailError));
    for (const leak of ['127.0.0.1', logoBase.split(':')[2], '10.9.8.7', '5432', '8443', '503', 'refused'])
      expect(errors).not.toContain(leak);
  });

  it('a new card deletes the ones it supersedes; a provided card deletes the rendered ones', async () => {
    const who = await t.createTenant();
    const db = t.app.get(DataSource);
    const storedCards = async (linkId: string) =>
      Number(
        (
          (await db.query(`SELECT count(*) AS n FROM thumbnail_images WHERE custom_link_id = $1`, [linkId])) as {
            n: string;
          }[]
        )[0].n,
      );
    const [link] = await c.createLinks(who, [{ firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical' }]);
    expect(new URL(link.shareThumbnailUrl as string).pathname).toMatch(CARD_PATH);
    await c.card(link).expect(200);

    const renamed = ((await c.patch(who, link.id, { company: 'Babbage & Co' }).expect(200)).body as LinkUpdate).job!;
    expect((await c.waitForJob(who, renamed.id)).status).toBe('completed');
    const rerendered = await c.getLink(who, link.id);
    expect(rerendered.shareThumbnailUrl).not.toBe(link.shareThumbnailUrl);
    await c.card(rerendered).expect(200);
    await c.card(link).expect(404, { detail: 'Not Found' });
    expect(await storedCards(link.id)).toBe(1);

    await c.patch(who, link.id, { shareThumbnailUrl: PROVIDED }).expect(200);
    expect(await c.getLink(who, link.id)).toMatchObject({ thumbnailStatus: 'provided', shareThumbnailUrl: PROVIDED });
    await c.card(rerendered).expect(404, { detail: 'Not Found' });
    expect(await storedCards(link.id)).toBe(0);
  });

  it("a deactivated link's card answers 404; reactivating serves it again; a card is cached for 5 minutes", async () => {
    const who = await t.createTenant();
    const [link] = await c.createLinks(who, [{ firstName: 'Alan', lastName: 'Turing', company: 'Bletchley' }]);
    const served = await c.card(link).buffer(true).expect(200);
    expect(served.headers['cache-control']).toBe('public, max-age=300');
    expect(served.headers['content-type']).toBe('image/png');

    const action = (name: string) =>
      request(t.server)
        .post(`${LINKS}/actions`)
        .set('x-api-key', who.key)
        .send({ action: name, customLinkIds: [link.id] })
        .expect(200);
    await action('deactivate');
    const refused = await c.card(link).expect(404, { detail: 'Not Found' });
    expect(String(refused.headers['cache-control'] ?? '')).not.toMatch(/max-age=[1-9]/);
    await action('activate');
    expect(((await c.card(link).buffer(true).expect(200)).body as Buffer).equals(served.body as Buffer)).toBe(true);

    // The same through PATCH active.
    await c.patch(who, link.id, { active: false }).expect(200);
    await c.card(link).expect(404);
  });
});
