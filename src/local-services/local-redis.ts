import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import Redis from 'ioredis';
import { isAlive, livePidFrom, run, waitFor } from './processes';

export const REDIS_MISSING =
  'Redis is needed and no redis-server is on the PATH: install it (apt-get install redis-server, brew install redis), ' +
  'or run `docker compose -f docker/compose.yaml up -d redis` and set REDIS_URL=redis://127.0.0.1:6379/0.';

/**
 * redis-server from the PATH, daemonised with its data in one folder (an RDB snapshot every minute
 * with a change, and on shutdown), so queues and counters survive a restart. No Redis is shipped on
 * the npm registry that can run Bull, hence the machine's own server.
 */
export class LocalRedis {
  constructor(
    readonly directory: string,
    readonly port: number,
  ) {}

  url(database = 0): string {
    return `redis://127.0.0.1:${this.port}/${database}`;
  }

  runningPid(): Promise<number | null> {
    return livePidFrom(join(this.directory, 'redis.pid'));
  }

  /** The server binary, or null when none is installed. */
  static async findServer(): Promise<string | null> {
    for (const folder of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
      const candidate = join(folder, 'redis-server');
      if (
        await access(candidate, constants.X_OK).then(
          () => true,
          () => false,
        )
      )
        return candidate;
    }
    return null;
  }

  async start(): Promise<void> {
    const server = await LocalRedis.findServer();
    if (!server) throw new Error(REDIS_MISSING);
    await mkdir(this.directory, { recursive: true });
    await run(server, [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--daemonize',
      'yes',
      '--dir',
      this.directory,
      '--pidfile',
      join(this.directory, 'redis.pid'),
      '--logfile',
      join(this.directory, 'redis.log'),
      '--save',
      '60 1',
      '--appendonly',
      'no',
    ]);
    await waitFor(
      () => this.answers(),
      30_000,
      `redis-server on 127.0.0.1:${this.port} (see ${join(this.directory, 'redis.log')})`,
    );
  }

  /** SIGTERM makes Redis write its snapshot and exit; this waits until it has. */
  async stop(): Promise<void> {
    const pid = await this.runningPid();
    if (pid === null) return;
    process.kill(pid, 'SIGTERM');
    await waitFor(async () => !isAlive(pid), 30_000, 'redis-server to stop');
  }

  private answers(): Promise<boolean> {
    return redisAnswers(this.url());
  }
}

/** Whether a Redis answers PING at this URL (one try, no retries). */
export async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
