import request from 'supertest';
import { TcpProxy } from './support/tcp-proxy';
import { createTestApp, readUntil, type TestApp, type Tenant } from './support/test-app';

/**
 * Dependency outages (issue 18): an instance whose PostgreSQL and Redis sit behind cuttable proxies.
 * Refused or stalled, a request that needs the dependency answers 503 with Retry-After and SPEC's
 * text within a bound (defaults: 2 s for Redis, 10 s for PostgreSQL); /healthz stays 200; /readyz
 * names what is down; once the dependency is back the instance heals by itself.
 */
const UNAVAILABLE = { detail: 'The workflow is disabled or temporarily unavailable.' };

describe('dependency outages', () => {
  let database: TcpProxy;
  let redis: TcpProxy;
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    const db = await TcpProxy.for(process.env.DATABASE_URL!);
    const cache = await TcpProxy.for(process.env.REDIS_URL!);
    database = db.proxy;
    redis = cache.proxy;
    t = await createTestApp({ DATABASE_URL: db.url, REDIS_URL: cache.url });
    tenant = await t.createTenant();
  });

  afterEach(async () => {
    database.set('open');
    redis.set('open');
    await readUntil(
      () => request(t.server).get('/readyz'),
      (res) => res.status === 200,
      15_000,
    );
  });

  afterAll(async () => {
    await t.close();
    await Promise.all([database.stop(), redis.stop()]);
  });

  const sessions = () => request(t.server).get('/api/v1/sessions').set('x-api-key', tenant.key);

  /** The response and how long it took. */
  async function timed(send: () => request.Test): Promise<{ res: request.Response; ms: number }> {
    const started = Date.now();
    const res = await send();
    return { res, ms: Date.now() - started };
  }

  const expectUnavailable = (res: request.Response) => {
    expect({ status: res.status, body: res.body }).toEqual({ status: 503, body: UNAVAILABLE });
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  };

  it('answers normally through the proxies', async () => {
    await sessions().expect(200);
    await request(t.server)
      .get('/readyz')
      .expect(200, { status: 'ok', checks: { database: 'up', redis: 'up' } });
  });

  /** Each dependency, its proxy, how soon an outage must be answered, and what readiness then says. */
  const dependencies = [
    { name: 'Redis', proxy: () => redis, answeredWithinMs: 2000, checks: { database: 'up', redis: 'down' } },
    { name: 'PostgreSQL', proxy: () => database, answeredWithinMs: 10_000, checks: { database: 'down', redis: 'up' } },
  ];

  for (const { name, proxy, answeredWithinMs, checks } of dependencies) {
    for (const mode of ['refuse', 'stall'] as const) {
      it(`${name} ${mode === 'refuse' ? 'refusing connections' : 'stalling'}: 503 within ${answeredWithinMs / 1000} s, readyz names it, healthz 200, heals within 10 s`, async () => {
        await sessions().expect(200);
        proxy().set(mode);
        const { res, ms } = await timed(sessions);
        expectUnavailable(res);
        expect(ms).toBeLessThan(answeredWithinMs);
        // Probes reuse a check for up to a second, and a check waits at most 2 s.
        const ready = await readUntil(
          () => request(t.server).get('/readyz'),
          (r) => r.status === 503,
          3500,
        );
        expect(ready.body).toEqual({ status: 'unavailable', checks });
        await request(t.server).get('/healthz').expect(200, { status: 'ok' });

        proxy().set('open');
        const healedAt = Date.now();
        await readUntil(sessions, (r) => r.status === 200, 10_000);
        expect(Date.now() - healedAt).toBeLessThan(10_000);
      });
    }
  }
});
