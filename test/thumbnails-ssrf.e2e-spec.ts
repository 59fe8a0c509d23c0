import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Job, JobEnvelope, LinkPage } from './support/api-types';
import { createTestApp, eventually, type TestApp } from './support/test-app';

/**
 * docs/api.md §12.6: a logo is fetched over http(s) from public addresses only. Through the whole
 * pipeline (creation job → render worker), a logo on loopback, link-local (the cloud metadata
 * address) or private ranges is never fetched: the card falls back to the default one with
 * thumbnailError `logo_fetch_failed` and its fixed message. (Other schemes are refused at creation:
 * test/url-fields.e2e-spec.ts.)
 */
describe('thumbnail logos and SSRF', () => {
  let t: TestApp;
  let bait: HttpServer;
  let baitHits = 0;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all', RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' });
    // A loopback server that would serve a logo: it must never be asked.
    bait = createServer((_req, res) => {
      baitHits += 1;
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('89504e470d0a1a0a', 'hex'));
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => bait.close(resolve));
    await t.close();
  });

  it('refuses loopback, link-local and private logos: fallback card, logo_fetch_failed with its fixed message, no request made', async () => {
    const port = (bait.address() as AddressInfo).port;
    const refused = [
      `http://127.0.0.1:${port}/logo.png`,
      `http://localhost:${port}/logo.png`,
      `http://[::1]:${port}/logo.png`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/logo.png',
      'http://192.168.1.1/logo.png',
      'http://172.16.0.1/logo.png',
      'http://[fd00::7]:6379/logo.png',
    ];
    const { key } = await t.createTenant();
    const auth = { Authorization: `Bearer ${key}` };
    const links = refused.map((prospectLogoUrl, i) => ({ firstName: `Logo${i}`, company: 'Acme', prospectLogoUrl }));
    const created = await request(t.server)
      .post('/api/v1/custom-links')
      .set(auth)
      .set('Idempotency-Key', 'ssrf')
      .send({ links })
      .expect(202);
    const jobId = (created.body as JobEnvelope).job.id;
    await eventually(
      async () =>
        ((await request(t.server).get(`/api/v1/custom-link-jobs/${jobId}`).set(auth)).body as Job).status ===
        'completed',
      30_000,
      100,
    );

    const job = (await request(t.server).get(`/api/v1/custom-link-jobs/${jobId}`).set(auth).expect(200)).body as Job;
    expect(job.thumbnailFallbackCount).toBe(refused.length);
    const list = (await request(t.server).get('/api/v1/custom-links?limit=200').set(auth).expect(200)).body as LinkPage;
    for (const link of list.customLinks) {
      expect({
        url: link.prospectLogoUrl,
        status: link.thumbnailStatus,
        error: link.thumbnailError,
        attempts: link.thumbnailAttempts,
      }).toEqual({
        url: link.prospectLogoUrl,
        status: 'fallback',
        // One fixed text per code: no host, address or port of the refused URL is echoed.
        error: { code: 'logo_fetch_failed', message: 'The prospect logo could not be fetched.' },
        attempts: 1,
      });
      // The default card was still drawn and is served.
      const card = await request(t.server)
        .get(new URL(link.shareThumbnailUrl as string).pathname)
        .expect(200);
      expect(card.headers['content-type']).toBe('image/png');
    }
    expect(baitHits).toBe(0);
  });
});
