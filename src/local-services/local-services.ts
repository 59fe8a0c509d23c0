import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/environment';
import { migrationDataSourceOptions } from '../database/data-source-options';
import { runPendingMigrations } from '../database/migration-runs';
import { EmbeddedPostgres, prepareDataDir } from './embedded-postgres';
import { LocalRedis, REDIS_MISSING } from './local-redis';
import { isAlive } from './processes';
import { withStartLock } from './start-lock';

const LOCK_TIMEOUT_MS = 180_000;

/** A server this process may have started; stopped when its last user process is gone. */
export interface LocalServer {
  readonly directory: string;
  runningPid(): Promise<number | null>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface LocalServices {
  /** Leaves the servers to any other process still using them; stops them otherwise. */
  release(): Promise<void>;
}

const NONE: LocalServices = { release: async () => undefined };

/**
 * Development without DATABASE_URL / REDIS_URL: runs an embedded PostgreSQL and a redis-server
 * with their data under DATA_DIR, shared by every process started in the folder (the server, the
 * CLI, a second server): each process registers as a user, the first one starts a server, the last
 * one to leave stops it. A server left running by a process that crashed is adopted.
 */
export async function startLocalServices(
  config: AppConfig,
  options: { migrate: boolean; redis: boolean },
): Promise<LocalServices> {
  const local = { ...config.localServices, redis: config.localServices.redis && options.redis };
  if (!local.postgres && !local.redis) return NONE;
  if (local.redis && !(await LocalRedis.findServer())) throw new Error(REDIS_MISSING);
  const dataDir = resolve(local.dataDir);
  await prepareDataDir(dataDir);
  const postgres = local.postgres ? new EmbeddedPostgres(join(dataDir, 'postgres'), local.postgresPort) : null;
  const servers: LocalServer[] = [
    ...(local.redis ? [new LocalRedis(join(dataDir, 'redis'), local.redisPort)] : []),
    ...(postgres ? [postgres] : []),
  ];

  await joinServers(dataDir, servers, async () => {
    if (postgres) await prepareDatabase(postgres, config.databaseUrl, options.migrate);
  });
  note(`using ${describe(local)} under ${dataDir}`);
  return { release: () => leaveServers(dataDir, servers) };
}

/**
 * Registers this process as a user of each server, starting those that are not running, then runs
 * `ready` (still under the lock, so two processes never migrate at once). On failure it leaves
 * what it joined.
 */
export async function joinServers(
  dataDir: string,
  servers: LocalServer[],
  ready: () => Promise<void> = async () => undefined,
): Promise<void> {
  await withStartLock(dataDir, LOCK_TIMEOUT_MS, async () => {
    const joined: LocalServer[] = [];
    try {
      for (const server of servers) {
        await joinServer(server);
        joined.push(server);
      }
      await ready();
    } catch (error) {
      for (const server of joined.reverse()) await leaveServer(server).catch(() => undefined);
      throw error;
    }
  });
}

/** Unregisters this process; a server with no live user left is stopped. */
export async function leaveServers(dataDir: string, servers: LocalServer[]): Promise<void> {
  await withStartLock(dataDir, LOCK_TIMEOUT_MS, async () => {
    for (const server of [...servers].reverse()) await leaveServer(server);
  });
}

function describe(local: AppConfig['localServices']): string {
  return [
    local.postgres && `embedded PostgreSQL on 127.0.0.1:${local.postgresPort}`,
    local.redis && `redis-server on 127.0.0.1:${local.redisPort}`,
  ]
    .filter(Boolean)
    .join(' and ');
}

const usersOf = (server: LocalServer) => `${server.directory}.users`;

async function joinServer(server: LocalServer): Promise<void> {
  await mkdir(usersOf(server), { recursive: true });
  const running = (await server.runningPid()) !== null;
  if (!running) {
    // Users recorded for a server that is not running died with it.
    await rm(usersOf(server), { recursive: true, force: true });
    await mkdir(usersOf(server), { recursive: true });
    await server.start();
  }
  await writeFile(join(usersOf(server), String(process.pid)), '');
}

async function leaveServer(server: LocalServer): Promise<void> {
  await rm(join(usersOf(server), String(process.pid)), { force: true });
  const users = (await readdir(usersOf(server)).catch(() => [])).map(Number).filter((pid) => pid > 0 && isAlive(pid));
  if (users.length === 0 && (await server.runningPid()) !== null) await server.stop();
}

/** The database of DATABASE_URL's default exists; migrated too, unless a migration command runs next. */
async function prepareDatabase(postgres: EmbeddedPostgres, databaseUrl: string, migrate: boolean): Promise<void> {
  await postgres.ensureDatabase(new URL(databaseUrl).pathname.slice(1));
  if (!migrate) return;
  const dataSource = new DataSource(migrationDataSourceOptions(databaseUrl));
  await dataSource.initialize();
  try {
    const { applied } = await runPendingMigrations(dataSource);
    if (applied.length > 0) note(`applied ${applied.length} migrations`);
  } finally {
    await dataSource.destroy();
  }
}

/** Plain lines on stderr: these run before (and after) the application's logger exists. */
function note(line: string): void {
  process.stderr.write(`[local services] ${line}\n`);
}
