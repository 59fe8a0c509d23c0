import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import request from 'supertest';
import type { JobEnvelope, JobItemPage, Link } from './api-types';
import { readUntil } from './test-app';

/**
 * Custom Links made through the API (one creation job, their cards provided unless a field says
 * otherwise), in the order of `links`, once the job has made every one. The app runs workers.
 */
export async function createLinks(server: Server, key: string, links: Record<string, unknown>[]): Promise<Link[]> {
  const get = (path: string) => request(server).get(path).set('x-api-key', key).expect(200);
  const res = await request(server)
    .post('/api/v1/custom-links')
    .set('x-api-key', key)
    .set('Idempotency-Key', randomUUID())
    .send({ links: links.map((link) => ({ shareThumbnailUrl: 'https://cdn.example.com/card.png', ...link })) })
    .expect(202);
  const jobId = (res.body as JobEnvelope).job.id;
  const items = await readUntil(
    async () => (await get(`/api/v1/custom-link-jobs/${jobId}/items?limit=200`)).body as JobItemPage,
    (page) => page.items.length === links.length && page.items.every((item) => item.customLinkId),
  );
  return Promise.all(
    items.items.map(async (item) => (await get(`/api/v1/custom-links/${item.customLinkId}`)).body as Link),
  );
}

/** A Custom Link made through the API (a one-link job, its card provided), once its job has made it. */
export async function createLink(server: Server, key: string): Promise<Link> {
  return (await createLinks(server, key, [{ firstName: 'Ada' }]))[0];
}

/** A link's slug: the last segment of its url. */
export const slugOf = (link: Link) => new URL(link.url).pathname.split('/').pop() as string;
