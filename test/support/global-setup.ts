import { loadConfig } from '../../src/config/environment';
import { connectRedis } from '../../src/common/redis/redis.module';
import { createMigratedDatabase } from './databases';
import { RedisCluster } from './redis-cluster';
import { replicaOfRunDatabase } from './replica';
import { resolveTestServices } from './test-services';

/** The cluster TEST_REDIS_CLUSTER_PORTS asked for, stopped by the teardown (both run in jest's own process). */
const started = globalThis as { engagementRedisCluster?: RedisCluster };

/** One fresh database per run, migrated from scratch (so migrations are exercised too), and Redis reachable. */
export default async function globalSetup(): Promise<void> {
  // `npm run test:redis-cluster`: the run's Redis is a three-master cluster of its own (docs/scaling.md).
  const clusterPorts = process.env.TEST_REDIS_CLUSTER_PORTS;
  if (clusterPorts) {
    started.engagementRedisCluster = await RedisCluster.start(clusterPorts.split(',').map(Number));
    process.env.TEST_REDIS_URL = started.engagementRedisCluster.url();
  }
  const services = await resolveTestServices();
  const name = `engagement_test_${Date.now()}_${process.pid}`;
  const databaseUrl = await createMigratedDatabase(name, services.adminDatabaseUrl);

  // Redis is not flushed: every counter key holds a fresh organization or key id, so runs that
  // overlap (a developer's and CI's) cannot disturb each other.
  const redis = connectRedis(loadConfig({ REDIS_URL: services.redisUrl }).redis, {});
  await redis.ping();
  await redis.quit();

  process.env.TEST_ADMIN_DATABASE_URL = services.adminDatabaseUrl;
  process.env.TEST_REDIS_URL = services.redisUrl;
  process.env.TEST_EMBEDDED_SERVICES = services.embedded.join(',');
  process.env.TEST_DATABASE_NAME = name;
  // Queues are named per run too: a worker of an overlapping run must never take this run's jobs.
  process.env.QUEUE_PREFIX = `bull-${name}`;
  // Every spec's requests come from 127.0.0.1 and the per-client counters live in Redis, shared by
  // the specs running in parallel: one spec's 401s or link opens must not use up another's budget.
  // The specs about these limits set small ones on their own instances and count per client
  // address through X-Forwarded-For (TRUST_PROXY), each test from an address of its own.
  for (const name of [
    'AUTH_FAILURES_PER_CLIENT_PER_MINUTE',
    'LINK_OPENS_PER_CLIENT_PER_MINUTE',
    'LINK_OPENS_PER_LINK_PER_MINUTE',
    'THUMBNAIL_REQUESTS_PER_CLIENT_PER_MINUTE',
  ]) {
    process.env[name] = '100000000';
  }
  // Every spec shares the run's database: with the default 60 s lease, one spec's `all`-role app
  // would reap the renders and jobs an earlier spec left unfinished and run them as its own.
  // The reaper's own spec sets a short lease on a database of its own.
  process.env.JOB_LEASE_MS = '3600000';
  // Likewise webhook deliveries: any `all`-role app's dispatcher would take another spec's deliveries
  // (to that spec's local receiver, which its own configuration may refuse), and with the hour-long
  // lease a delivery taken by an app that then closed waits an hour. Only the specs with receivers
  // dispatch (each sets WEBHOOK_DISPATCH_INTERVAL_MS on its own instances).
  process.env.WEBHOOK_DISPATCH_INTERVAL_MS = '600000';
  process.env.DATABASE_URL = databaseUrl;
  process.env.REDIS_URL = services.redisUrl;
  // With a replica of the cluster (TEST_REPLICA_URL, .ci/start-replica), the replica specs use it;
  // TEST_READS_FROM_REPLICA=true also makes every app of the run read from it (docs/scaling.md).
  const replicaAdminUrl = process.env.TEST_REPLICA_URL;
  if (replicaAdminUrl) {
    const replicaUrl = await replicaOfRunDatabase(services.adminDatabaseUrl, replicaAdminUrl, name);
    process.env.TEST_REPLICA_DATABASE_URL = replicaUrl;
    if (process.env.TEST_READS_FROM_REPLICA === 'true') process.env.DATABASE_REPLICA_URLS = replicaUrl;
  }
}
