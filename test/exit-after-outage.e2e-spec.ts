import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { TcpProxy } from './support/tcp-proxy';
import { eventually } from './support/test-app';
import { assertBuilt, exitCodeOf, freePort, startService } from './support/worker-process';

/**
 * A clean exit whatever happened before (issue 30 point 2): the built service (API and workers in
 * one process, as production runs them) lives through a Redis or PostgreSQL outage, refused or
 * stalled, healed or not, then gets SIGTERM. It drains and exits 0 within SHUTDOWN_TIMEOUT_MS; every
 * line it wrote to stdout and stderr is JSON, and none reports an unhandled rejection or error.
 *
 * The service runs on a database and queues of its own: through a stalled proxy it would hold, until
 * the proxy closes, the queue jobs it took and the fold locks it had, and other specs would wait on them.
 */
const SHUTDOWN_TIMEOUT_MS = 8000;

function status(port: number, path: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, timeout: 3000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

describe('exit after an outage', () => {
  const proxies: TcpProxy[] = [];
  /** Exit codes and times, for docs/operations.md (reports/exit-after-outage.json). */
  const figures: { dependency: string; mode: string; healed: boolean; code: number | null; exitMs: number }[] = [];
  let isolated: IsolatedServices;
  beforeAll(async () => {
    assertBuilt();
    isolated = await isolatedServices('outage');
  }, 120_000);
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    await isolated?.drop();
    mkdirSync('reports', { recursive: true });
    writeFileSync('reports/exit-after-outage.json', `${JSON.stringify(figures, null, 2)}\n`);
  });

  const cases = (['Redis', 'PostgreSQL'] as const).flatMap((dependency) =>
    (['refuse', 'stall'] as const).flatMap((mode) => [true, false].map((healed) => ({ dependency, mode, healed }))),
  );

  it.each(cases)(
    '$dependency $mode (healed: $healed): SIGTERM drains and exits 0 in time, every line JSON, no unhandled error',
    async ({ dependency, mode, healed }) => {
      const db = await TcpProxy.for(isolated.env.DATABASE_URL);
      const cache = await TcpProxy.for(process.env.REDIS_URL!);
      proxies.push(db.proxy, cache.proxy);
      const port = await freePort();
      const child: ChildProcess = startService(
        port,
        {
          APP_ROLE: 'all',
          NODE_ENV: 'production',
          CURSOR_SECRET: 'exit-after-outage-cursor-secret-0123456789',
          LOG_LEVEL: 'info',
          QUEUE_PREFIX: isolated.env.QUEUE_PREFIX,
          DATABASE_URL: db.url,
          REDIS_URL: cache.url,
          SHUTDOWN_DRAIN_DELAY_MS: '300',
          SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
        },
        { output: 'pipe' },
      );
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      try {
        await eventually(async () => (await status(port, '/readyz')) === 200, 30_000);
        const proxy = dependency === 'Redis' ? cache.proxy : db.proxy;
        proxy.set(mode);
        // Requests and workers meet the outage until readiness sees it.
        await eventually(async () => {
          await Promise.all([status(port, '/api/v1/sessions'), status(port, '/l/nope')]);
          return (await status(port, '/readyz')) === 503;
        }, 15_000);
        if (healed) {
          proxy.set('open');
          await eventually(async () => (await status(port, '/readyz')) === 200, 15_000);
        }
        const signalledAt = Date.now();
        child.kill('SIGTERM');
        const code = await exitCodeOf(child);
        const tookMs = Date.now() - signalledAt;
        figures.push({ dependency, mode, healed, code, exitMs: tookMs });
        const lines = output.split('\n').filter((line) => line.trim().length > 0);
        const notJson = lines.filter((line) => {
          try {
            return typeof JSON.parse(line) !== 'object';
          } catch {
            return true;
          }
        });
        const unhandled = lines.filter((line) => /unhandled|uncaught/i.test(line));
        expect({ code, notJson, unhandled }).toEqual({ code: 0, notJson: [], unhandled: [] });
        expect(tookMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        db.proxy.set('open');
        cache.proxy.set('open');
      }
    },
    90_000,
  );
});
