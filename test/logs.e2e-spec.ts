import { Controller, Get } from '@nestjs/common';
import Bull from 'bull';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Public } from '../src/common/auth/auth.decorators';
import { preparedQuery } from '../src/common/database/prepared-query';
import { JOBS_QUEUE, RUN_JOB } from '../src/modules/custom-link-jobs/jobs/custom-link-jobs.queue';
import type { Job, JobEnvelope, JobItemPage, Link } from './support/api-types';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { folded } from './support/fold';
import { createTestApp, eventually, readUntil, type Tenant, type TestApp } from './support/test-app';
import { assertBuilt, startWorker } from './support/worker-process';

/**
 * Issue 17 point 5: no log line holds an API key, a prospect's email, name, transcript text or
 * link context, a query value or SQL parameters. One scenario (ingestion, transcript and list
 * reads, link creation rendered by a real worker, a link update, an open, events, and failing
 * requests of every kind: a wrong key, 422s, 404s, database errors through the API and on the
 * worker) runs with marker values at LOG_LEVEL=trace; every line the API and the worker write is
 * captured, and no marker may appear in any of them.
 *
 * On a database and queues of its own: the worker whose lines are read must be the one that runs
 * this scenario's jobs, folds and erasures, not another spec's worker on the shared queues.
 */

jest.setTimeout(120_000);

const RUN = randomBytes(5).toString('hex');
/** A value that occurs nowhere but where the test put it: lower-case letters and hex only. */
const marker = (label: string) => `zq${label}${RUN}`;

const M = {
  sessionEmail: `${marker('sessionmail')}@example.com`,
  sessionName: `Ada ${marker('sessionname')}`,
  transcript: `my number is ${marker('transcript')}`,
  linkEmail: `${marker('linkmail')}@example.com`,
  linkFirstName: marker('linkfirst'),
  linkLastName: marker('linklast'),
  linkCompany: marker('linkcompany'),
  linkContext: `Met at the fair, ${marker('linkcontext')}`,
  patchedContext: marker('patchedcontext'),
  userAgent: `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 ${marker('useragent')}`,
  visitorId: marker('visitor'),
  // An address (looked up for the event's country, never stored nor logged) unique to the run.
  clientIp: `2001:db8:${RUN.slice(0, 4)}:${RUN.slice(4, 8)}::${RUN.slice(8, 10)}`,
  referrer: `https://${marker('referrerhost')}.example.com/?q=${marker('referrerquery')}`,
  queryEmail: `${marker('queryemail')}@example.com`,
  invalidBody: marker('invalidbody'),
  invalidQuery: marker('invalidquery'),
  notFoundPath: marker('notfoundpath'),
  notFoundDomain: `${marker('domain')}.example.com`,
  notFoundSlug: marker('slug'),
  nulContext: marker('nulcontext'),
  nulQuery: marker('nulquery'),
  uniqueViolation: `${marker('unique')}@example.com`,
  invalidUuid: marker('invaliduuid'),
  preparedUuid: marker('prepareduuid'),
  workerOrganization: marker('workerorg'),
  // A well-formed key (sk_live_ + 32 base62) that belongs to no one.
  wrongKey: `sk_live_${`Zq${RUN}`.padEnd(32, 'Q')}`,
  wrongApiKeyHeader: `sk_live_${`Zx${RUN}`.padEnd(32, 'X')}`,
};

/** Database errors whose driver message and detail quote the values, thrown where a route would throw them. */
@Controller('probe')
class DatabaseErrorProbeController {
  constructor(private readonly db: DataSource) {}

  @Get('unique-violation')
  @Public()
  async uniqueViolation(): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('CREATE TEMP TABLE probe_unique (email text PRIMARY KEY) ON COMMIT DROP');
      await tx.query('INSERT INTO probe_unique (email) VALUES ($1), ($1)', [M.uniqueViolation]);
    });
  }

  @Get('invalid-uuid')
  @Public()
  async invalidUuid(): Promise<void> {
    await this.db.query('SELECT $1::uuid', [M.invalidUuid]);
  }

  /** The driver's own DatabaseError, not wrapped by TypeORM (hot reads use prepared statements). */
  @Get('prepared-invalid-uuid')
  @Public()
  async preparedInvalidUuid(): Promise<void> {
    await preparedQuery(this.db, 'SELECT $1::uuid AS id', [M.preparedUuid]);
  }
}

type Entry = Record<string, unknown> & { msg?: string };

describe('logs hold no personal data and no secrets', () => {
  let t: TestApp;
  let worker: ChildProcess;
  let who: Tenant;
  const apiLines: string[] = [];
  let workerOutput = '';
  let isolated: IsolatedServices;

  beforeAll(async () => {
    assertBuilt();
    isolated = await isolatedServices('logs');
    // The first app of this file owns the logger (nestjs-pino keeps one per process).
    t = await createTestApp(
      {
        ...isolated.env,
        LOG_LEVEL: 'trace',
        RATE_LIMIT_PER_MINUTE: '100000',
        LINK_MUTATIONS_PER_MINUTE: '100000',
        PUBLIC_BASE_URL: 'https://go.logs.test',
      },
      { controllers: [DatabaseErrorProbeController], logDestination: { write: (line: string) => apiLines.push(line) } },
    );
    worker = startWorker(
      43_000 + Math.floor(Math.random() * 1000),
      { ...isolated.env, LOG_LEVEL: 'trace', PUBLIC_BASE_URL: 'https://go.logs.test' },
      { output: 'pipe' },
    );
    worker.stdout?.setEncoding('utf8').on('data', (chunk: string) => (workerOutput += chunk));
    worker.stderr?.setEncoding('utf8').on('data', (chunk: string) => (workerOutput += chunk));
    who = await t.createTenant();
  }, 120_000);

  afterAll(async () => {
    if (worker?.exitCode === null) worker.kill('SIGKILL');
    await t?.close();
    await isolated?.drop();
  });

  const auth = (req: request.Test, key = who.key) => req.set('Authorization', `Bearer ${key}`);
  const api = () => request(t.server);
  const entries = (lines: string[]) =>
    lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Entry);
  const workerLines = () => workerOutput.split('\n').filter(Boolean);

  it('runs the scenario on the API and a worker, and no marker reaches a log line', async () => {
    // Ingestion with a transcript, then the reads that return it.
    const sessionId = newSessionId();
    const transcript = {
      entries: [{ speaker: 'prospect', text: M.transcript, timestamp: '2026-11-20T10:00:05.000Z', sequenceNumber: 1 }],
    };
    await ingest(
      t.server,
      who.key,
      sessionId,
      sessionBody({ email: M.sessionEmail, name: M.sessionName, transcript }),
    ).expect(200);
    expect((await auth(api().get(`/api/v1/sessions/${sessionId}/transcript`)).expect(200)).body).toMatchObject({
      entries: [{ text: M.transcript }],
    });
    await auth(api().get(`/api/v1/sessions?email=${encodeURIComponent(M.sessionEmail)}`)).expect(200);
    await auth(api().get(`/api/v1/people?email=${encodeURIComponent(M.queryEmail)}`)).expect(200);

    // A link created and its card rendered by the worker, then updated and opened.
    const link = {
      firstName: M.linkFirstName,
      lastName: M.linkLastName,
      email: M.linkEmail,
      company: M.linkCompany,
      context: M.linkContext,
    };
    const created = await auth(api().post('/api/v1/custom-links'))
      .set('Idempotency-Key', randomUUID())
      .send({ links: [link] })
      .expect(202);
    const jobId = (created.body as JobEnvelope).job.id;
    const job = await readUntil(
      async () => (await auth(api().get(`/api/v1/custom-link-jobs/${jobId}`)).expect(200)).body as Job,
      (j) => j.status === 'completed',
      60_000,
    );
    expect(job.thumbnailGeneratedCount).toBe(1);
    const items = (await auth(api().get(`/api/v1/custom-link-jobs/${jobId}/items`)).expect(200)).body as JobItemPage;
    const linkId = items.items[0].customLinkId;
    await auth(api().patch(`/api/v1/custom-links/${linkId}`))
      .send({ context: M.patchedContext })
      .expect(200);
    const { url } = (await auth(api().get(`/api/v1/custom-links/${linkId}`)).expect(200)).body as Link;
    await api().get(new URL(url).pathname).set('User-Agent', M.userAgent).redirects(0).expect(302);
    await readUntil(
      async () => ((await auth(api().get(`/api/v1/custom-links/${linkId}`)).expect(200)).body as Link).engagement.stage,
      (stage) => stage === 'opened',
      30_000,
    );
    const event = {
      eventId: `evt-${RUN}`,
      type: 'page_view',
      customLinkId: linkId,
      occurredAt: '2026-11-20T10:00:00.000Z',
      visitorId: M.visitorId,
      userAgent: M.userAgent,
      clientIp: M.clientIp,
      referrer: M.referrer,
    };
    await auth(api().post('/api/v1/events'))
      .send({ events: [event] })
      .expect(202);
    // The worker folds the event (with its markers) into the rollups: its lines of that are checked too.
    await folded(t.app, who.organizationId, 30_000);

    // The session's person erased by the worker (suppressed), the link's by phone-less email, then refused.
    for (const email of [M.sessionEmail, M.linkEmail]) {
      const requested = await auth(api().post('/api/v1/privacy/erasures')).send({ email, suppress: true }).expect(202);
      const location = requested.headers.location as string;
      await readUntil(
        async () => ((await auth(api().get(location)).expect(200)).body as { status: string }).status,
        (status) => status === 'completed',
        60_000,
      );
    }
    await ingest(t.server, who.key, newSessionId(), sessionBody({ email: M.sessionEmail })).expect(422);

    // Refusals: wrong keys, 422s with markers in the body and the query, 404s with markers in the path.
    await auth(api().get('/api/v1/sessions'), M.wrongKey).expect(401);
    await api().get('/api/v1/sessions').set('x-api-key', M.wrongApiKeyHeader).expect(401);
    await auth(api().get(`/api/v1/people?email=${encodeURIComponent(M.queryEmail)}&limit=${M.invalidQuery}`)).expect(
      422,
    );
    await auth(api().post('/api/v1/custom-links'))
      .set('Idempotency-Key', randomUUID())
      .send({ links: [{ firstName: 42, context: M.invalidBody }] })
      .expect(422);
    await auth(api().get(`/api/v1/${M.notFoundPath}`)).expect(404);
    await auth(api().get(`/api/v1/accounts/${M.notFoundDomain}`)).expect(404);
    await api().get(`/l/${M.notFoundSlug}`).expect(404);

    // Values PostgreSQL refuses (U+0000), whatever the API answers for them, and database errors that quote values.
    await auth(api().get(`/api/v1/sessions?email=%00${M.nulQuery}`));
    await auth(api().patch(`/api/v1/custom-links/${linkId}`)).send({ context: `a\u0000${M.nulContext}` });
    for (const probe of ['unique-violation', 'invalid-uuid', 'prepared-invalid-uuid']) {
      expect((await api().get(`/probe/${probe}`).expect(500)).body).toEqual({ detail: 'Internal server error.' });
    }

    // A job that fails on the worker with a database error quoting its (marker) organization id.
    const queue = new Bull(JOBS_QUEUE, process.env.REDIS_URL ?? '', { prefix: isolated.env.QUEUE_PREFIX });
    const failingJobId = randomUUID();
    try {
      await queue.add(
        RUN_JOB,
        { organizationId: M.workerOrganization, jobId: failingJobId },
        { jobId: failingJobId, attempts: 1, removeOnFail: true },
      );
    } finally {
      await queue.close();
    }
    await eventually(async () => Promise.resolve(workerOutput.includes(failingJobId)), 30_000);

    // Stopping lets the worker flush what it has written.
    worker.kill('SIGTERM');
    await new Promise((resolve) => (worker.exitCode === null ? worker.once('exit', resolve) : resolve(null)));

    // The capture works: the lines this scenario must have produced are there.
    const logged = entries(apiLines);
    const requestLine = (route: string) =>
      logged.find((e) => e.msg === 'request completed' && (e.res as { route?: string }).route === route);
    expect(requestLine('/api/v1/ingest/sessions/:session_id')).toMatchObject({
      req: { method: 'PUT' },
      res: { statusCode: 200, path: `/api/v1/ingest/sessions/${sessionId}` },
    });
    // Top-level request fields: id, the caller's organization, route template, status, duration; string levels.
    expect(requestLine('/api/v1/ingest/sessions/:session_id')).toMatchObject({
      level: 'info',
      requestId: expect.stringMatching(/./),
      organizationId: who.organizationId,
      route: '/api/v1/ingest/sessions/:session_id',
      status: 200,
      durationMs: expect.any(Number),
    });
    expect(requestLine('/l/:slug')).toMatchObject({ organizationId: null, route: '/l/:slug', status: 302 });
    expect(requestLine('/api/v1/sessions')).toMatchObject({ req: { method: 'GET', query: ['email'] } });
    expect(requestLine('/l/:slug')).toMatchObject({ res: { statusCode: 302, path: '/l/:slug' } });
    // A 500's request line says only that it failed; its cause is the filter's line, with the same request id.
    const failedRequest = logged.find(
      (e) => e.msg === 'request errored' && (e.res as { route?: string }).route === '/probe/invalid-uuid',
    );
    expect(failedRequest).toMatchObject({ level: 'info', res: { statusCode: 500 } });
    expect(failedRequest?.err).toBeUndefined();
    expect(
      logged.filter(
        (e) =>
          e.msg === 'request completed' &&
          (e.res as { statusCode: number }).statusCode === 404 &&
          (e.res as { route: unknown }).route === null,
      ).length,
    ).toBeGreaterThan(0);
    const unhandled = logged.filter((e) => e.msg === 'Unhandled error').map((e) => e.err as Record<string, unknown>);
    expect(unhandled).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'QueryFailedError',
          code: '23505',
          constraint: 'probe_unique_pkey',
          table: 'probe_unique',
          message: 'Database query failed',
        }),
        expect.objectContaining({ type: 'QueryFailedError', code: '22P02', message: 'Database query failed' }),
        expect.objectContaining({ type: 'DatabaseError', code: '22P02', message: 'Database query failed' }),
      ]),
    );
    const failed = entries(workerLines()).find((e) => e.jobId === failingJobId);
    expect(failed).toMatchObject({
      level: 'warn',
      msg: 'Job failed',
      queue: JOBS_QUEUE,
      job: RUN_JOB,
      attempt: 1,
      attempts: 1,
      err: { type: 'QueryFailedError', code: '22P02' },
    });
    expect(workerLines().length).toBeGreaterThan(10);

    // No marker, no key: neither in the API's lines nor in anything the worker wrote.
    const secrets: Record<string, string> = {
      ...M,
      validKey: who.key,
      validKeySecret: who.key.slice('sk_live_'.length),
    };
    const leaks = (text: string) =>
      Object.entries(secrets)
        .filter(([, value]) => text.includes(value) || text.includes(encodeURIComponent(value)))
        .map(([label]) => label);
    expect(leaks(apiLines.join(''))).toEqual([]);
    expect(leaks(workerOutput)).toEqual([]);
    expect(apiLines.join('')).not.toContain(RUN);
    expect(workerOutput).not.toContain(RUN);
  });
});
