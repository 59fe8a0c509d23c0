import type Redis from 'ioredis';
import request from 'supertest';
import { REDIS } from '../src/common/redis/redis.module';
import { createTestApp, type TestApp } from './support/test-app';

/** Operational routes (docs/api.md §15.1): no key, no rate limit. */

describe('health and metrics', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const expectNoRateHeaders = (res: request.Response) => {
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      expect(res.headers[name]).toBeUndefined();
  };

  it('GET /healthz answers 200 {"status":"ok"} without a key and without rate headers', async () => {
    const res = await request(t.server)
      .get('/healthz')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expectNoRateHeaders(res);
  });

  it('GET /healthz ignores a key, even an invalid one', async () => {
    await request(t.server).get('/healthz').set('x-api-key', 'sk_live_invalid').expect(200, { status: 'ok' });
    const { key } = await t.createTenant();
    expectNoRateHeaders(await request(t.server).get('/healthz').set('x-api-key', key).expect(200, { status: 'ok' }));
  });

  it('GET /readyz answers 200 with PostgreSQL and Redis up, without a key and without rate headers', async () => {
    const res = await request(t.server).get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
    expect(res.headers['retry-after']).toBeUndefined();
    expectNoRateHeaders(res);
  });

  it('GET /metrics is Prometheus text with request durations by route template, without a key', async () => {
    const { key } = await t.createTenant();
    // A request with an id in its path: the metric must label it with the template, not the id.
    const id = '0190a000-0000-7000-8000-00000000beef';
    await request(t.server).delete(`/api/v1/custom-link-campaigns/${id}`).set('x-api-key', key).expect(404);

    const res = await request(t.server)
      .get('/metrics')
      .expect(200)
      .expect('Content-Type', /^text\/plain; version=0\.0\.4/);
    expectNoRateHeaders(res);
    expect(res.text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.text).toMatch(
      /^http_request_duration_seconds_count\{method="DELETE",route="\/api\/v1\/custom-link-campaigns\/:campaign_id",status="404"\} [1-9]\d*$/m,
    );
    expect(res.text).not.toContain(id);
    // Default process metrics are there too.
    expect(res.text).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it('GET /readyz answers 503 with Retry-After while Redis is unreachable; /healthz stays 200', async () => {
    // A second instance whose Redis connection is cut, so the shared one above stays usable.
    const broken = await createTestApp();
    try {
      broken.app.get<Redis>(REDIS).disconnect();
      const res = await request(broken.server).get('/readyz').expect(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'up', redis: 'down' } });
      await request(broken.server).get('/healthz').expect(200, { status: 'ok' });
    } finally {
      await broken.close();
    }
  });
});
