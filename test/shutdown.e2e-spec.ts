import { Controller, Get, Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type Redis from 'ioredis';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Public } from '../src/common/auth/auth.decorators';
import { REDIS } from '../src/common/redis/redis.module';
import { Draining } from '../src/common/shutdown/draining';
import type { Job, JobEnvelope } from './support/api-types';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { createTestApp, eventually, readUntil, type TestApp } from './support/test-app';
import { assertBuilt, exitCodeOf, freePort, startService, startWorker } from './support/worker-process';

/**
 * Graceful shutdown (src/stop-on-signals.ts). Draining: /readyz answers 503 at once while every
 * route is still served, each response closing its connection. Closing the app then stops
 * accepting connections, lets a request in flight finish, with its database and Redis still
 * usable, and only then resolves. The built service does both on SIGTERM and exits 0; a worker
 * finishes the job it runs or, past SHUTDOWN_TIMEOUT_MS, leaves it to the next worker.
 */

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The probe's handler waits on `release`; `entered` tells the test the request is in the handler. */
const gate = { entered: deferred(), release: deferred() };

@Controller('test-probe')
class SlowProbeController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Public()
  @Get('slow')
  async slow(): Promise<{ finished: true; database: number; redis: string }> {
    gate.entered.resolve();
    await gate.release.promise;
    // Work after the shutdown began still has its connections.
    const [{ ok }] = await this.db.query<{ ok: number }[]>('SELECT 1 AS ok');
    return { finished: true, database: ok, redis: await this.redis.ping() };
  }
}

interface Answer {
  status: number;
  body: unknown;
  headers: http.IncomingHttpHeaders;
  at: number;
}

/** A GET on `agent`'s connections (the default agent keeps them alive, as a load balancer would). */
function get(port: number, path: string, options: { agent?: http.Agent; key?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = options.key ? { authorization: `Bearer ${options.key}` } : {};
    http
      .get({ host: '127.0.0.1', port, path, agent: options.agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text) as unknown,
            headers: res.headers,
            at: Date.now(),
          }),
        );
      })
      .on('error', reject);
  });
}

/** Resolves with the error code of a fresh TCP connection attempt, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

const DRAINING_READINESS = { status: 'unavailable', checks: { database: 'up', redis: 'up' }, draining: true };

describe('graceful shutdown', () => {
  let t: TestApp;
  let closed = false;

  beforeAll(async () => {
    t = await createTestApp({}, { controllers: [SlowProbeController] });
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    gate.release.resolve();
    if (!closed) await t.close();
  });

  it('draining: /readyz answers 503 at once (not the reused 200), every route is still served on new and kept connections, each response closing its connection', async () => {
    const { port } = t.server.address() as AddressInfo;
    const { key } = await t.createTenant();
    const kept = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // A ready answer that the next second's probes would reuse, and a connection kept alive.
      expect((await get(port, '/readyz')).status).toBe(200);
      const before = await get(port, '/api/v1/sessions', { agent: kept, key });
      expect(before.status).toBe(200);
      expect(before.headers.connection).toBe('keep-alive');

      t.app.get(Draining).begin();

      const readiness = await get(port, '/readyz');
      expect(readiness.status).toBe(503);
      expect(readiness.headers['retry-after']).toBe('5');
      expect(readiness.body).toEqual(DRAINING_READINESS);
      expect(readiness.headers.connection).toBe('close');
      const health = await get(port, '/healthz');
      expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(health.headers.connection).toBe('close');
      const onKept = await get(port, '/api/v1/sessions', { agent: kept, key });
      expect(onKept.status).toBe(200);
      expect(onKept.headers.connection).toBe('close');
      expect(await tryConnect(port)).toBe('connected');
    } finally {
      kept.destroy();
    }
  });

  it('finishes the request in flight, refuses new connections, and resolves close() after the response', async () => {
    const { port } = t.server.address() as AddressInfo;
    expect(await tryConnect(port)).toBe('connected');

    const inFlight = get(port, '/test-probe/slow');
    await gate.entered.promise;

    let closedAt = 0;
    const closing = t.app.close().then(() => {
      closedAt = Date.now();
      closed = true;
    });

    // The listener closes while the request is still held in its handler.
    await eventually(async () => (await tryConnect(port)) === 'ECONNREFUSED', 5000);
    expect(closed).toBe(false);

    gate.release.resolve();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ finished: true, database: 1, redis: 'PONG' });

    await closing;
    expect(closedAt).toBeGreaterThanOrEqual(response.at);
    expect(await tryConnect(port)).toBe('ECONNREFUSED');
  });
});

/**
 * On a database and queues of its own: which process runs a job (the stopping worker, the next one)
 * is what these tests check, and another spec's worker on the shared queues could take it.
 */
describe('the built service on SIGTERM', () => {
  let api: TestApp;
  let db: DataSource;
  let isolated: IsolatedServices;
  const processes: ChildProcess[] = [];

  beforeAll(async () => {
    assertBuilt();
    isolated = await isolatedServices('shutdown');
    api = await createTestApp({
      ...isolated.env,
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
    });
    db = api.app.get(DataSource);
  }, 120_000);
  // A worker left running would take the next test's job.
  afterEach(async () => {
    for (const child of processes.splice(0)) {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exitCodeOf(child);
    }
  });
  afterAll(async () => {
    await api?.close();
    await isolated?.drop();
  });

  /** The built service on this describe's database and queues, with its log lines collected when `launch` pipes them. */
  function start(launch: (port: number, env: Record<string, string>) => ChildProcess, port: number) {
    const child = launch(port, isolated.env);
    processes.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const logged = (msg: string) =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((entry) => entry.msg === msg);
    return { child, exited: exitCodeOf(child), logged };
  }

  const answers = async (port: number, path: string) =>
    (await get(port, path, { agent: new http.Agent() }).catch(() => null))?.status === 200;

  it.each([
    ['api', {}, 5000],
    // Its queues check for stalled jobs as the worker tests' do: a checker's interval blocks the others' for as long.
    [
      'all',
      { SHUTDOWN_DRAIN_DELAY_MS: '2000', QUEUE_LOCK_DURATION_MS: '2000', QUEUE_STALLED_INTERVAL_MS: '1000' },
      2000,
    ],
  ])(
    'APP_ROLE=%s: /readyz turns 503 at once, requests are served through the drain delay, then the port closes and the exit code is 0',
    async (role, env, drainMs) => {
      const { key } = await api.createTenant();
      const port = await freePort();
      const service = start(
        (p, own) =>
          startService(
            p,
            { ...own, APP_ROLE: role, DEMO_SEED: 'false', LOG_LEVEL: 'info', ...env },
            { output: 'pipe' },
          ),
        port,
      );
      await eventually(() => answers(port, '/readyz'), 30_000, 100);
      const kept = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        expect((await get(port, '/api/v1/sessions', { agent: kept, key })).status).toBe(200);

        const signalledAt = Date.now();
        service.child.kill('SIGTERM');
        const readiness = await readUntil(
          () => get(port, '/readyz', { agent: new http.Agent() }),
          (r) => r.status === 503,
          4000,
        );
        expect(readiness.body).toEqual(DRAINING_READINESS);
        // Still serving: probes, and the API on a connection opened before the signal.
        expect((await get(port, '/healthz', { agent: new http.Agent() })).status).toBe(200);
        const served = await get(port, '/api/v1/sessions', { agent: kept, key });
        expect(served.status).toBe(200);
        expect(served.headers.connection).toBe('close');
        expect(service.logged('Draining before shutdown')).toMatchObject({ signal: 'SIGTERM', drainDelayMs: drainMs });
        // An orchestrator repeating the signal does not cut the drain short.
        service.child.kill('SIGTERM');

        await eventually(async () => (await tryConnect(port)) === 'ECONNREFUSED', drainMs + 20_000, 50);
        // The listener closed no sooner than the drain delay after the signal (a lower bound: load only delays it).
        expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(drainMs);
        expect(await service.exited).toBe(0);
      } finally {
        kept.destroy();
      }
    },
  );

  it('a second SIGINT (Ctrl-C twice) ends the drain at once; the exit code is still 0', async () => {
    const port = await freePort();
    const service = start(
      (p, own) =>
        startService(
          p,
          {
            ...own,
            APP_ROLE: 'api',
            DEMO_SEED: 'false',
            LOG_LEVEL: 'info',
            SHUTDOWN_DRAIN_DELAY_MS: '60000',
            SHUTDOWN_TIMEOUT_MS: '90000',
          },
          { output: 'pipe' },
        ),
      port,
    );
    await eventually(() => answers(port, '/readyz'), 30_000, 100);
    service.child.kill('SIGINT');
    await readUntil(
      () => get(port, '/readyz', { agent: new http.Agent() }),
      (r) => r.status === 503,
      4000,
    );
    service.child.kill('SIGINT');
    // Far sooner than the 60 s drain.
    await eventually(async () => (await tryConnect(port)) === 'ECONNREFUSED', 20_000, 50);
    expect(await service.exited).toBe(0);
    expect(service.logged('Closing: no new connections; finishing requests and active jobs')).toBeDefined();
  });

  /** A link-creation job of `count` links for a new tenant, and readers of its state. */
  async function createLinkJob(count: number) {
    const { key, organizationId } = await api.createTenant();
    const auth = { Authorization: `Bearer ${key}` };
    const links = Array.from({ length: count }, (_, i) => ({
      firstName: `P${i}`,
      externalId: `drain-${i}`,
      shareThumbnailUrl: `https://cdn.example.com/${i}.png`,
    }));
    const created = await request(api.server)
      .post('/api/v1/custom-links')
      .set(auth)
      .set('Idempotency-Key', randomUUID())
      .send({ links })
      .expect(202);
    const jobId = (created.body as JobEnvelope).job.id;
    return {
      job: async () =>
        (await request(api.server).get(`/api/v1/custom-link-jobs/${jobId}`).set(auth).expect(200)).body as Job,
      /** Links the job made, and how many distinct items they stand for. */
      links: async () => {
        const [row] = await db.query<{ links: string; items: string }[]>(
          'SELECT count(*) AS links, count(DISTINCT external_id) AS items FROM custom_links WHERE organization_id = $1 AND job_id = $2',
          [organizationId, jobId],
        );
        return { links: Number(row.links), items: Number(row.items) };
      },
    };
  }

  it('APP_ROLE=worker: no drain; it finishes the job it runs and exits 0; a job queued meanwhile runs once, there or on the next worker', async () => {
    const running = await createLinkJob(500);
    const worker = start(
      (p, own) => startWorker(p, { ...own, LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '120000' }, { output: 'pipe' }),
      await freePort(),
    );
    await eventually(async () => (await running.job()).createdCount >= 25, 30_000, 20);
    const atSignal = await running.job();
    worker.child.kill('SIGTERM');
    await eventually(() => Promise.resolve(worker.logged('Draining before shutdown') !== undefined), 10_000);
    expect(worker.logged('Draining before shutdown')).toMatchObject({ signal: 'SIGTERM', drainDelayMs: 0 });
    // Bull may still hand this one to the stopping worker (a fetch already waiting, or the next job
    // fetched as the running one completes): it must then run it, or leave it to the next worker.
    const queuedMeanwhile = await createLinkJob(20);

    expect(await worker.exited).toBe(0);
    expect(atSignal.status).toBe('processing');
    expect(atSignal.createdCount).toBeLessThan(500);
    // No other worker ran: the stopping one finished its job before leaving.
    expect(await running.job()).toMatchObject({ status: 'completed', createdCount: 500 });
    expect(await running.links()).toEqual({ links: 500, items: 500 });

    start((p, own) => startWorker(p, own), await freePort());
    await eventually(async () => (await queuedMeanwhile.job()).status === 'completed', 60_000, 100);
    expect(await queuedMeanwhile.links()).toEqual({ links: 20, items: 20 });
  }, 120_000);

  it('APP_ROLE=worker past SHUTDOWN_TIMEOUT_MS: exits 1 mid-job, and another worker completes the job with every item exactly once', async () => {
    const running = await createLinkJob(500);
    // A grace far shorter than the job: at some 300 links a second, the remaining ones need over a second.
    const worker = start(
      (p, own) => startWorker(p, { ...own, LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '100' }, { output: 'pipe' }),
      await freePort(),
    );
    await eventually(async () => (await running.job()).createdCount >= 1, 30_000, 20);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(1);
    expect(worker.logged('Shutdown timed out; exiting')).toMatchObject({ timeoutMs: 100 });
    const atExit = await running.job();
    expect(atExit.status).toBe('processing');
    expect(atExit.createdCount).toBeLessThan(500);

    start((p, own) => startWorker(p, own), await freePort());
    await eventually(async () => (await running.job()).status === 'completed', 60_000, 100);
    expect(await running.links()).toEqual({ links: 500, items: 500 });
  }, 120_000);
});
