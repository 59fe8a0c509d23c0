import Bull from 'bull';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { JOBS_QUEUE, RUN_JOB } from '../src/modules/custom-link-jobs/jobs/custom-link-jobs.queue';
import { createTestApp, eventually, readUntil, type Tenant, type TestApp } from './support/test-app';
import { assertBuilt, exitCodeOf, freePort, startService } from './support/worker-process';

/**
 * Issue 19 point 4: OpenTelemetry tracing is off by default and loads nothing; with the standard
 * OTEL_* variables the built service sends spans over OTLP/HTTP, here to a receiver in this test:
 * an HTTP request's server span with the PostgreSQL queries it made as spans of the same trace.
 * Issue 30 point 5: log lines of a request or a job carry its trace_id and span_id, and a job's span
 * links to the request that queued it (src/common/tracing/trace-context.spec.ts checks the pieces
 * with an in-memory exporter: under jest the HTTP instrumentation cannot patch the app in process).
 */

jest.setTimeout(120_000);

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string } }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
}

type LogLine = Record<string, unknown> & { msg?: string };

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CONSUMER = 5;
const PROBE = join(__dirname, 'support', 'loaded-modules-probe.cjs');

describe('OpenTelemetry tracing', () => {
  let t: TestApp;
  let who: Tenant;
  let receiver: Server;
  let endpoint: string;
  const spans: OtlpSpan[] = [];
  const posts: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    t = await createTestApp();
    who = await t.createTenant();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        posts.push(req.url ?? '');
        if (req.url === '/v1/traces') {
          const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
          for (const resource of parsed.resourceSpans)
            for (const scope of resource.scopeSpans) spans.push(...scope.spans);
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  /** Runs the built service with `env` while `during` runs; `output` collects what it writes to stdout and stderr. */
  async function run(
    env: Record<string, string>,
    during: (base: string) => Promise<void>,
    output?: string[],
  ): Promise<{ opentelemetry: number }> {
    const port = await freePort();
    const loadedFile = join(mkdtempSync(join(tmpdir(), 'otel-probe-')), 'loaded.json');
    const service: ChildProcess = startService(
      port,
      {
        APP_ROLE: 'api',
        LOG_LEVEL: 'silent',
        SHUTDOWN_DRAIN_DELAY_MS: '0',
        NODE_OPTIONS: `--require ${PROBE}`,
        LOADED_MODULES_FILE: loadedFile,
        ...env,
      },
      output ? { output: 'pipe' } : {},
    );
    service.stdout?.setEncoding('utf8').on('data', (chunk: string) => output?.push(chunk));
    service.stderr?.setEncoding('utf8').on('data', (chunk: string) => output?.push(chunk));
    const base = `http://127.0.0.1:${port}`;
    try {
      await readUntil(
        () =>
          request(base)
            .get('/readyz')
            .catch(() => ({ status: 0 })),
        (res) => res.status === 200,
        60_000,
      );
      await during(base);
    } finally {
      service.kill('SIGTERM');
      expect(await exitCodeOf(service)).toBe(0);
    }
    expect(existsSync(loadedFile)).toBe(true);
    return JSON.parse(readFileSync(loadedFile, 'utf8')) as { opentelemetry: number };
  }

  const tracingOn = () => ({
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'engagement-test',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  const isQuery = (span: OtlpSpan) => span.attributes.some((a) => a.key === 'db.system' || a.key === 'db.system.name');
  /** Whether `span` is `root` or has it as an ancestor among `trace`. */
  const descendsFrom = (root: OtlpSpan, trace: OtlpSpan[]) => {
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const descends = (span: OtlpSpan): boolean =>
      span.spanId === root.spanId ||
      (span.parentSpanId !== undefined && byId.has(span.parentSpanId) && descends(byId.get(span.parentSpanId)!));
    return descends;
  };

  it('with OTEL_TRACES_EXPORTER=otlp, a request arrives as a server span with its PostgreSQL queries in the same trace', async () => {
    const loaded = await run(tracingOn(), async (base) => {
      await request(base).get('/api/v1/custom-link-campaigns').set('x-api-key', who.key).expect(200);
      await eventually(
        async () =>
          Promise.resolve(
            spans.some((s) => s.kind === SPAN_KIND_SERVER && s.name.includes('/api/v1/custom-link-campaigns')),
          ),
        30_000,
        100,
      );
    });
    expect(loaded.opentelemetry).toBeGreaterThan(0);
    const server = spans.find((s) => s.kind === SPAN_KIND_SERVER && s.name.includes('/api/v1/custom-link-campaigns'))!;
    const trace = spans.filter((s) => s.traceId === server.traceId);
    const queries = trace.filter(isQuery);
    expect(queries.length).toBeGreaterThan(0);
    // Every query span descends from the request's server span.
    expect(queries.every(descendsFrom(server, trace))).toBe(true);
    // Probes are not traced.
    expect(spans.some((s) => s.name.includes('/readyz'))).toBe(false);
  });

  it('with APP_ROLE=all, a Bull job run is a consumer span of its own trace, with the queries the job made, linked to the request that queued it', async () => {
    const isJobRun = (s: OtlpSpan) =>
      s.kind === SPAN_KIND_CONSUMER &&
      s.attributes.some((a) => a.key === 'bull.job.name' && a.value.stringValue === RUN_JOB);
    const lastName = `Zq${randomUUID().replace(/-/g, '')}`;
    const link = { firstName: 'Ada', lastName, company: 'Co', shareThumbnailUrl: 'https://cdn.example.com/card.png' };
    const failingJobId = randomUUID();
    const output: string[] = [];
    const lines = () =>
      output
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as LogLine);
    // A queue prefix of its own: the job runs in the traced process, not in another app of the test run.
    const prefix = `bull-tracing-${randomUUID()}`;
    await run(
      { ...tracingOn(), APP_ROLE: 'all', QUEUE_PREFIX: prefix, LOG_LEVEL: 'info' },
      async (base) => {
        await request(base)
          .post('/api/v1/custom-links')
          .set('x-api-key', who.key)
          .set('Idempotency-Key', randomUUID())
          .send({ links: [link] })
          .expect(202);
        await eventually(
          async () => Promise.resolve(spans.some((s) => isJobRun(s) && (s.links ?? []).length > 0)),
          30_000,
          100,
        );
        // A job queued outside any request (here by the test, on the service's queue) that fails: its failure line is the job's too.
        const queue = new Bull(JOBS_QUEUE, process.env.REDIS_URL ?? '', { prefix });
        try {
          await queue.add(
            RUN_JOB,
            { organizationId: 'not-an-organization', jobId: failingJobId },
            { jobId: failingJobId, attempts: 1, removeOnFail: true },
          );
        } finally {
          await queue.close();
        }
        await eventually(async () => Promise.resolve(lines().some((l) => l.jobId === failingJobId)), 30_000, 100);
      },
      output,
    );

    const server = spans.find((s) => s.kind === SPAN_KIND_SERVER && s.name.includes('/api/v1/custom-links'))!;
    const requestTrace = spans.filter((s) => s.traceId === server.traceId);
    const job = spans.find((s) => isJobRun(s) && (s.links ?? []).length > 0)!;
    expect(job.name).toBe('process custom-link-jobs');
    expect(job.parentSpanId ?? '').toBe('');
    expect(job.traceId).not.toBe(server.traceId);
    const queries = spans.filter((s) => s.traceId === job.traceId && isQuery(s));
    expect(queries.length).toBeGreaterThan(0);
    expect(
      queries.every(
        descendsFrom(
          job,
          spans.filter((s) => s.traceId === job.traceId),
        ),
      ),
    ).toBe(true);
    // The link points into the request's trace, at a span of the request (the one active when it queued the job).
    expect(job.links).toHaveLength(1);
    const [queuedBy] = job.links!;
    expect(queuedBy.traceId).toBe(server.traceId);
    const linked = requestTrace.find((s) => s.spanId === queuedBy.spanId);
    expect(linked).toBeDefined();
    expect(descendsFrom(server, requestTrace)(linked!)).toBe(true);

    // Every line of a request carries its trace and a span of it.
    const logged = lines();
    const requestLines = logged.filter((l) => l.requestId !== undefined);
    expect(requestLines.length).toBeGreaterThan(0);
    for (const line of requestLines)
      expect(line).toMatchObject({
        trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
        span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      });
    const created = requestLines.find((l) => l.route === '/api/v1/custom-links' && l.status === 202)!;
    expect(created.trace_id).toBe(server.traceId);
    expect(requestTrace.some((s) => s.spanId === created.span_id)).toBe(true);
    // The failed job's line carries its run's trace: an unlinked consumer span that failed.
    const failed = logged.find((l) => l.jobId === failingJobId)!;
    expect(failed).toMatchObject({
      msg: 'Job failed',
      trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const failedRun = spans.find((s) => s.spanId === failed.span_id)!;
    expect(failedRun).toMatchObject({ traceId: failed.trace_id, kind: SPAN_KIND_CONSUMER, status: { code: 2 } });
    expect(failedRun.links ?? []).toEqual([]);
    // Trace ids are all tracing adds: no personal data.
    expect(output.join('')).not.toContain(lastName);
  });

  it('without OTEL_TRACES_EXPORTER no OpenTelemetry SDK or instrumentation is loaded and nothing is sent', async () => {
    const sentBefore = posts.length;
    const loaded = await run(
      { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      async (base) => {
        await request(base).get('/api/v1/custom-link-campaigns').set('x-api-key', who.key).expect(200);
      },
    );
    expect(loaded).toEqual({ opentelemetry: 0 });
    expect(posts.length).toBe(sentBefore);
  });
});
