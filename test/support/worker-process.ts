import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The built entry point, run as the image runs it (`npm run build` comes first). */
export const MAIN = join(__dirname, '..', '..', 'dist/src/main.js');

export function assertBuilt(): void {
  if (!existsSync(MAIN)) throw new Error('dist/ is missing: run `npm run build` before the e2e tests');
}

/**
 * The built service as a process of its own on this run's database, Redis and queues, in the role
 * and with the variables `env` gives. `output: 'pipe'` hands stdout and stderr to the test (a spec
 * that reads the process's logs).
 */
export function startService(
  port: number,
  env: Record<string, string>,
  options: { output?: 'pipe' } = {},
): ChildProcess {
  return spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      REDIS_URL: process.env.REDIS_URL ?? '',
      QUEUE_PREFIX: process.env.QUEUE_PREFIX ?? 'bull',
      JOB_LEASE_MS: process.env.JOB_LEASE_MS ?? '60000',
      WEBHOOK_DISPATCH_INTERVAL_MS: process.env.WEBHOOK_DISPATCH_INTERVAL_MS ?? '1000',
      PORT: String(port),
      ...env,
    },
    stdio: options.output === 'pipe' ? ['ignore', 'pipe', 'pipe'] : process.env.WORKER_DEBUG ? 'inherit' : 'ignore',
  });
}

/**
 * A real worker process (APP_ROLE=worker). Short queue locks let a job whose worker was killed be
 * taken over in seconds instead of the default 30 s.
 */
export function startWorker(
  port: number,
  env: Record<string, string> = {},
  options: { output?: 'pipe' } = {},
): ChildProcess {
  const defaults = {
    APP_ROLE: 'worker',
    LOG_LEVEL: process.env.WORKER_DEBUG ? 'debug' : 'silent',
    QUEUE_LOCK_DURATION_MS: '2000',
    QUEUE_STALLED_INTERVAL_MS: '1000',
  };
  return startService(port, { ...defaults, ...env }, options);
}

/** A TCP port free on 127.0.0.1 right now, for a process to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves with the process's exit code (null when a signal ended it), also when it has already exited. */
export function exitCodeOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
