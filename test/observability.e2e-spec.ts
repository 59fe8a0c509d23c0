import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { WebhookOutbox } from '../src/modules/webhooks';
import type { Export, Job, JobEnvelope, PeoplePage, WebhookEndpoint } from './support/api-types';
import { ingest, sessionBody } from './support/sessions';
import { TcpProxy } from './support/tcp-proxy';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { createTestApp, eventually, readUntil, type TestApp } from './support/test-app';

/**
 * Issue 19 point 4: the app's metrics on GET /metrics, /metrics when Redis does not answer, and who
 * may read /metrics, /docs and /admin/queues (docs/operations.md "Metrics and alerts"). Issue 30
 * point 6: the metrics of what users feel (webhook deliveries, exports, share cards, cache hit
 * ratios) each move when their thing happens.
 * Metrics live in one registry per process, shared by the apps of this file: each case looks for a
 * change it caused, and /metrics renders at most once a second, hence the polling.
 */

jest.setTimeout(60_000);

const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const METRICS_TOKEN = 'metrics-token-0123456789';
const ADMIN_TOKEN = 'admin-token-0123456789ab';

/** The value of one sample (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** GET /metrics of one app, and a poll until `series` exceeds `above` (absent counts as 0). */
function metricsOf(app: () => TestApp) {
  const metrics = async () => (await request(app().server).get('/metrics').expect(200)).text;
  const until = async (series: string, above: number) => {
    let text = '';
    await eventually(async () => (sample((text = await metrics()), series) ?? 0) > above, 10_000, 200);
    return text;
  };
  return { metrics, until };
}

describe('metrics', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  const { metrics, until } = metricsOf(() => t);

  it('counts jobs per queue and state, read from Redis, with the queue up', async () => {
    const text = await until('engagement_queue_up{queue="custom-link-jobs"}', 0);
    for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed']) {
      expect(text).toMatch(new RegExp(`^engagement_queue_${state}\\{queue="custom-link-jobs"\\} \\d+$`, 'm'));
    }
  });

  it('shows the PostgreSQL pool: connections in use, idle, waiting and the maximum', async () => {
    const text = await metrics();
    for (const name of ['in_use', 'idle', 'waiting'])
      expect(sample(text, `engagement_db_pool_${name}`)).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'engagement_db_pool_max')).toBeGreaterThanOrEqual(t.config.databasePoolSize);
    expect(sample(text, 'engagement_db_pool_in_use')! + sample(text, 'engagement_db_pool_idle')!).toBeGreaterThan(0);
  });

  it('counts 429s of the request rate under the limit name, never the key or organization', async () => {
    const who = await t.createTenant();
    const before = sample(await metrics(), 'engagement_limit_rejections_total{limit="requests"}') ?? 0;
    let limited = 0;
    for (let i = 0; i < 5; i++)
      if ((await request(t.server).get(CAMPAIGNS).set('x-api-key', who.key)).status === 429) limited++;
    expect(limited).toBeGreaterThan(0);
    const text = await until('engagement_limit_rejections_total{limit="requests"}', before + limited - 1);
    expect(text).not.toContain(who.organizationId);
  });

  it('counts idempotent replays and conflicts', async () => {
    const who = await t.createTenant();
    const text0 = await metrics();
    const replays = sample(text0, 'engagement_idempotency_replays_total') ?? 0;
    const conflicts = sample(text0, 'engagement_idempotency_conflicts_total') ?? 0;
    const key = randomUUID();
    const post = (name: string) =>
      request(t.server).post(CAMPAIGNS).set('x-api-key', who.key).set('Idempotency-Key', key).send({ name });
    await post('Replayed').expect(201);
    expect((await post('Replayed').expect(201)).headers['idempotent-replayed']).toBe('true');
    await post('Another body').expect(409);
    await until('engagement_idempotency_replays_total', replays);
    await until('engagement_idempotency_conflicts_total', conflicts);
  });

  it('counts principal cache hits and misses: a new key is looked up once, then answered from the cache', async () => {
    const who = await t.createTenant();
    const hits = 'engagement_cache_lookups_total{cache="principal",result="hit"}';
    const misses = 'engagement_cache_lookups_total{cache="principal",result="miss"}';
    const text0 = await metrics();
    await request(t.server).get(CAMPAIGNS).set('x-api-key', who.key).expect(200);
    await request(t.server).get(CAMPAIGNS).set('x-api-key', who.key).expect(200);
    const text = await until(hits, sample(text0, hits) ?? 0);
    expect(sample(text, misses)).toBeGreaterThan(sample(text0, misses) ?? 0);
  });

  it('counts count cache hits and misses: a list total is counted once, then read from the cache', async () => {
    const who = await t.createTenant();
    const hits = 'engagement_cache_lookups_total{cache="count",result="hit"}';
    const misses = 'engagement_cache_lookups_total{cache="count",result="miss"}';
    const text0 = await metrics();
    const page = await request(t.server).get('/api/v1/people?limit=1').set('x-api-key', who.key).expect(200);
    expect((page.body as PeoplePage).pagination.total).toBe(0);
    await request(t.server).get('/api/v1/people?limit=1').set('x-api-key', who.key).expect(200);
    const text = await until(hits, sample(text0, hits) ?? 0);
    expect(sample(text, misses)).toBeGreaterThan(sample(text0, misses) ?? 0);
  });

  it('counts analytics cache hits and misses: an answer of the aggregates is computed once, then read from the cache', async () => {
    const who = await t.createTenant();
    const hits = 'engagement_cache_lookups_total{cache="analytics",result="hit"}';
    const misses = 'engagement_cache_lookups_total{cache="analytics",result="miss"}';
    const question =
      '/api/v1/analytics?metrics=opens&group_by=country&from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z';
    const text0 = await metrics();
    await request(t.server).get(question).set('x-api-key', who.key).expect(200);
    await request(t.server).get(question).set('x-api-key', who.key).expect(200);
    const text = await until(hits, sample(text0, hits) ?? 0);
    expect(sample(text, misses)).toBeGreaterThan(sample(text0, misses) ?? 0);
  });

  it('request duration buckets reach 10 s (a stalled database answers after about 6 s)', async () => {
    await request(t.server).get('/healthz').expect(200);
    const text = await until('http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}', 0);
    for (const le of ['2.5', '5', '7.5', '10', '+Inf'])
      expect(text).toContain(
        `http_request_duration_seconds_bucket{le="${le}",method="GET",route="/healthz",status="200"}`,
      );
  });

  it('observes ingestion lag (now minus the session end) once per change, not per re-send', async () => {
    const who = await t.createTenant();
    const series = 'engagement_ingestion_lag_seconds_count{kind="session"}';
    const before = sample(await metrics(), series) ?? 0;
    // Ended an hour ago: the lag lands in the 4 h bucket and above, not below one hour minus a margin.
    const endTime = new Date(Date.now() - 3_600_000).toISOString();
    const body = sessionBody({ startTime: new Date(Date.now() - 5_400_000).toISOString(), endTime });
    const id = randomUUID();
    await ingest(t.server, who.key, id, body).expect(200);
    await ingest(t.server, who.key, id, body).expect(200);
    const text = await until(series, before);
    expect(sample(text, series)).toBe(before + 1);
    const under = (le: string) =>
      sample(text, `engagement_ingestion_lag_seconds_bucket{le="${le}",kind="session"}`) ?? 0;
    expect(under('900')).toBeLessThan(under('14400'));
  });
});

describe('job metrics of an app that runs its jobs (APP_ROLE=all)', () => {
  let t: TestApp;

  let receiver: Server;
  let hooks: string;

  // A database and queue prefix of its own (isolated-database.ts): no other app of the run takes
  // this app's jobs or deliveries. Webhooks go to a local receiver that answers 204 on /ok and 500 elsewhere.
  let isolated: IsolatedServices;
  beforeAll(async () => {
    isolated = await isolatedServices('metrics');
    t = await createTestApp({
      ...isolated.env,
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '100000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_DISPATCH_INTERVAL_MS: '50',
      WEBHOOK_RETRY_BASE_MS: '60000',
    });
    receiver = createServer((req, res) => {
      req.resume().on('end', () => res.writeHead(req.url === '/ok' ? 204 : 500).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => receiver.close(resolve));
    await isolated.drop();
  });

  const { metrics, until } = metricsOf(() => t);

  it('observes the duration of a completed link creation job under its queue and job type', async () => {
    const who = await t.createTenant(['custom_links:read', 'custom_links:write']);
    const series =
      'engagement_job_duration_seconds_count{queue="custom-link-jobs",job="create-links",outcome="completed"}';
    const before = sample(await metrics(), series) ?? 0;
    const link = {
      firstName: 'Ada',
      lastName: 'Person',
      company: 'Co',
      shareThumbnailUrl: 'https://cdn.example.com/card.png',
    };
    const created = await request(t.server)
      .post('/api/v1/custom-links')
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ links: [link] })
      .expect(202);
    const jobId = (created.body as JobEnvelope).job.id;
    const job = await readUntil(
      async () =>
        (await request(t.server).get(`/api/v1/custom-link-jobs/${jobId}`).set('x-api-key', who.key).expect(200))
          .body as Job,
      (j) => j.status !== 'queued' && j.status !== 'processing',
    );
    expect(job.status).toBe('completed');
    const text = await until(series, before);
    expect(sample(text, series)).toBeGreaterThanOrEqual(1);
    const infinite =
      'engagement_job_duration_seconds_bucket{le="+Inf",queue="custom-link-jobs",job="create-links",outcome="completed"}';
    expect(sample(text, infinite)).toBe(sample(text, series));
  });

  it('counts webhook attempts by outcome with their duration, and endpoints disabled, never by URL', async () => {
    const who = await t.createTenant();
    const endpoint = async (path: string) =>
      (
        (
          await request(t.server)
            .post('/api/v1/webhook-endpoints')
            .set('x-api-key', who.key)
            .send({ url: `${hooks}${path}`, eventTypes: ['custom_link.opened'] })
            .expect(201)
        ).body as WebhookEndpoint
      ).id;
    const series = {
      success: 'engagement_webhook_attempts_total{outcome="success"}',
      httpError: 'engagement_webhook_attempts_total{outcome="http_error"}',
      durations: 'engagement_webhook_attempt_duration_seconds_count{outcome="success"}',
      disabled: 'engagement_webhook_endpoints_disabled_total',
    };
    const text0 = await metrics();
    await endpoint('/ok');
    const failing = await endpoint('/fail');
    // Failing for six days: its next failure deactivates it (five days, retry-schedule.ts).
    const db = t.app.get(DataSource);
    await db.query(
      `UPDATE webhook_endpoints SET failing_since = now() - interval '6 days' WHERE organization_id = $1 AND id = $2`,
      [who.organizationId, failing],
    );
    await db.transaction((tx) =>
      t.app.get(WebhookOutbox).record(tx, who.organizationId, 'custom_link.opened', { id: randomUUID() }),
    );

    await until(series.success, sample(text0, series.success) ?? 0);
    await until(series.httpError, sample(text0, series.httpError) ?? 0);
    await until(series.durations, sample(text0, series.durations) ?? 0);
    const text = await until(series.disabled, sample(text0, series.disabled) ?? 0);
    expect(text).not.toContain(hooks);
    expect(text).not.toContain('127.0.0.1');
    const endpoints = (
      await request(t.server).get(`/api/v1/webhook-endpoints/${failing}`).set('x-api-key', who.key).expect(200)
    ).body as WebhookEndpoint;
    expect(endpoints.active).toBe(false);
  });

  it('counts the rows and bytes of a completed export and observes its duration', async () => {
    const who = await t.createTenant();
    await ingest(t.server, who.key, randomUUID(), sessionBody({ email: 'ada@export.example.com' })).expect((res) =>
      expect([200, 201]).toContain(res.status),
    );
    const rows = 'engagement_export_rows_total{resource="people",format="ndjson"}';
    const bytes = 'engagement_export_bytes_total{resource="people",format="ndjson"}';
    const durations = 'engagement_export_duration_seconds_count{outcome="completed"}';
    const text0 = await metrics();
    const created = await request(t.server)
      .post('/api/v1/exports')
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ resource: 'people', format: 'ndjson', filters: {} })
      .expect(202);
    const done = await readUntil(
      async () =>
        (
          await request(t.server)
            .get(created.headers.location as string)
            .set('x-api-key', who.key)
            .expect(200)
        ).body as Export,
      (e) => e.status !== 'queued' && e.status !== 'processing',
    );
    expect(done).toMatchObject({ status: 'completed', rowCount: 1 });
    const text = await until(rows, sample(text0, rows) ?? 0);
    expect(sample(text, rows)).toBeGreaterThanOrEqual((sample(text0, rows) ?? 0) + 1);
    expect(sample(text, bytes)).toBeGreaterThan(sample(text0, bytes) ?? 0);
    expect(sample(text, durations)).toBeGreaterThan(sample(text0, durations) ?? 0);
  });

  it('counts card renders by outcome and observes their duration', async () => {
    const who = await t.createTenant();
    const generated = 'engagement_card_renders_total{outcome="generated"}';
    const durations = 'engagement_card_render_duration_seconds_count';
    const text0 = await metrics();
    const link = { firstName: 'Ada', lastName: 'Card', company: 'Co' };
    const created = await request(t.server)
      .post('/api/v1/custom-links')
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ links: [link] })
      .expect(202);
    const jobId = (created.body as JobEnvelope).job.id;
    const job = await readUntil(
      async () =>
        (await request(t.server).get(`/api/v1/custom-link-jobs/${jobId}`).set('x-api-key', who.key).expect(200))
          .body as Job,
      (j) => j.status !== 'queued' && j.status !== 'processing',
      60_000,
    );
    expect(job).toMatchObject({ status: 'completed', thumbnailGeneratedCount: 1 });
    const text = await until(generated, sample(text0, generated) ?? 0);
    expect(sample(text, durations)).toBeGreaterThan(sample(text0, durations) ?? 0);
  });
});

describe('metrics while Redis does not answer', () => {
  it('GET /metrics still answers 200 in bounded time, the queues reported down', async () => {
    const cache = await TcpProxy.for(process.env.REDIS_URL!);
    const t = await createTestApp({ REDIS_URL: cache.url, REDIS_COMMAND_TIMEOUT_MS: '500' });
    try {
      cache.proxy.set('stall');
      let text = '';
      await eventually(
        async () => {
          const res = await request(t.server).get('/metrics').timeout(10_000);
          expect(res.status).toBe(200);
          text = res.text;
          return sample(text, 'engagement_queue_up{queue="custom-link-jobs"}') === 0;
        },
        15_000,
        200,
      );
      expect(text).not.toMatch(/^engagement_queue_waiting\{queue="custom-link-jobs"\}/m);
      // The rest of the metrics are there.
      expect(text).toMatch(/^engagement_db_pool_idle \d+$/m);
    } finally {
      cache.proxy.set('open');
      await t.close();
      await cache.proxy.stop();
    }
  });
});

describe('operator endpoints', () => {
  it('by default: /metrics and /docs open, /admin/queues 404', async () => {
    const t = await createTestApp();
    try {
      await request(t.server).get('/metrics').expect(200);
      await request(t.server).get('/api/v1/openapi.json').expect(200);
      await request(t.server).get('/admin/queues').expect(404);
      await request(t.server).get('/admin/queues').set('Authorization', `Bearer ${ADMIN_TOKEN}`).expect(404);
    } finally {
      await t.close();
    }
  });

  it('METRICS_ENABLED=false and DOCS_ENABLED=false: /metrics, /docs and the OpenAPI JSON answer 404', async () => {
    const t = await createTestApp({ METRICS_ENABLED: 'false', DOCS_ENABLED: 'false' });
    try {
      await request(t.server).get('/metrics').expect(404);
      await request(t.server).get('/docs').expect(404);
      await request(t.server).get('/api/v1/openapi.json').expect(404);
      await request(t.server).get('/healthz').expect(200);
    } finally {
      await t.close();
    }
  });

  describe('with METRICS_TOKEN and ADMIN_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ METRICS_TOKEN, ADMIN_TOKEN });
    });
    afterAll(() => t.close());

    it('/metrics needs its token: missing and wrong 401, right 200', async () => {
      const missing = await request(t.server).get('/metrics').expect(401);
      expect(missing.text).not.toContain('engagement_');
      await request(t.server).get('/metrics').set('Authorization', `Bearer ${ADMIN_TOKEN}`).expect(401);
      await request(t.server).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}x`).expect(401);
      const res = await request(t.server).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
      expect(res.text).toContain('engagement_queue_up');
    });

    it('/admin/queues needs the admin token: missing and wrong 401 (Basic challenge), Bearer or Basic 200', async () => {
      const missing = await request(t.server).get('/admin/queues').expect(401);
      expect(missing.headers['www-authenticate']).toMatch(/^Basic realm="admin"/);
      await request(t.server).get('/admin/queues').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(401);
      await request(t.server).get('/admin/queues').auth('admin', 'wrong-password-0123456').expect(401);
      await request(t.server).get('/admin/queues/api/queues').expect(401);
      const page = await request(t.server)
        .get('/admin/queues')
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .expect(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      await request(t.server).get('/admin/queues').auth('anyone', ADMIN_TOKEN).expect(200);
      const api = await request(t.server)
        .get('/admin/queues/api/queues')
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
        .expect(200);
      expect((api.body as { queues: { name: string }[] }).queues.map((q) => q.name)).toContain('custom-link-jobs');
    });
  });
});
