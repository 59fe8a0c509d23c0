import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres, joinServers, leaveServers, LocalRedis, redisAnswers } from '../../src/local-services';
import { prepareDataDir } from '../../src/local-services/embedded-postgres';

/**
 * The services of a test run, in this order: the ones the environment names (TEST_ADMIN_DATABASE_URL,
 * TEST_REDIS_URL), the ones answering at the usual local addresses, otherwise embedded ones under
 * $TMPDIR/engagement-test-services (started here, stopped by the teardown when no other run uses them).
 */
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_REDIS = 'redis://127.0.0.1:6379/13';
// Outside the checkout: tests never start or touch a developer's ./.data (issue 30 point 7).
const DATA_DIR = join(tmpdir(), 'engagement-test-services');
const embeddedPostgres = () =>
  new EmbeddedPostgres(join(DATA_DIR, 'test-postgres'), Number(process.env.TEST_EMBEDDED_POSTGRES_PORT ?? 54339));
const embeddedRedis = () =>
  new LocalRedis(join(DATA_DIR, 'test-redis'), Number(process.env.TEST_EMBEDDED_REDIS_PORT ?? 63799));

export interface TestServices {
  adminDatabaseUrl: string;
  redisUrl: string;
  /** Which embedded servers this run joined (the teardown leaves them). */
  embedded: ('postgres' | 'redis')[];
}

export async function resolveTestServices(): Promise<TestServices> {
  const embedded: TestServices['embedded'] = [];
  let adminDatabaseUrl = process.env.TEST_ADMIN_DATABASE_URL;
  if (!adminDatabaseUrl && (await postgresAnswers(LOCAL_POSTGRES))) adminDatabaseUrl = LOCAL_POSTGRES;
  let redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl && (await redisAnswers(LOCAL_REDIS))) redisUrl = LOCAL_REDIS;
  if (!adminDatabaseUrl || !redisUrl) await prepareDataDir(DATA_DIR);
  if (!adminDatabaseUrl) {
    const postgres = embeddedPostgres();
    await joinServers(DATA_DIR, [postgres]);
    embedded.push('postgres');
    adminDatabaseUrl = postgres.url('postgres');
  }
  if (!redisUrl) {
    const redis = embeddedRedis();
    await joinServers(DATA_DIR, [redis]);
    embedded.push('redis');
    redisUrl = redis.url(13);
  }
  return { adminDatabaseUrl, redisUrl, embedded };
}

export async function releaseTestServices(embedded: string[]): Promise<void> {
  const servers = [
    ...(embedded.includes('postgres') ? [embeddedPostgres()] : []),
    ...(embedded.includes('redis') ? [embeddedRedis()] : []),
  ];
  if (servers.length > 0) await leaveServers(DATA_DIR, servers);
}

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
