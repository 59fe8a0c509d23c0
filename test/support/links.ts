import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import request from 'supertest';
import type { JobEnvelope, JobItemPage, Link } from './api-types';
import { readUntil } from './test-app';

/** A Custom Link made through the API (a one-link job, its card provided), once its job has made it. */
export async function createLink(server: Server, key: string): Promise<Link> {
  const get = (path: string) => request(server).get(path).set('x-api-key', key).expect(200);
  const res = await request(server)
    .post('/api/v1/custom-links')
    .set('x-api-key', key)
    .set('Idempotency-Key', randomUUID())
    .send({ links: [{ firstName: 'Ada', shareThumbnailUrl: 'https://cdn.example.com/card.png' }] })
    .expect(202);
  const jobId = (res.body as JobEnvelope).job.id;
  const items = await readUntil(
    async () => (await get(`/api/v1/custom-link-jobs/${jobId}/items`)).body as JobItemPage,
    (page) => Boolean(page.items[0]?.customLinkId),
  );
  return (await get(`/api/v1/custom-links/${items.items[0].customLinkId}`)).body as Link;
}

/** A link's slug: the last segment of its url. */
export const slugOf = (link: Link) => new URL(link.url).pathname.split('/').pop() as string;
