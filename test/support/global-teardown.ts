import { dropDatabase } from './databases';
import type { RedisCluster } from './redis-cluster';
import { releaseTestServices } from './test-services';

export default async function globalTeardown(): Promise<void> {
  const name = process.env.TEST_DATABASE_NAME;
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL;
  if (name && adminUrl && process.env.KEEP_TEST_DATABASE !== '1') {
    await dropDatabase(name, adminUrl);
  }
  if (process.env.KEEP_TEST_DATABASE !== '1')
    await releaseTestServices((process.env.TEST_EMBEDDED_SERVICES ?? '').split(',').filter(Boolean));
  // Started by the global setup (TEST_REDIS_CLUSTER_PORTS).
  await (globalThis as { engagementRedisCluster?: RedisCluster }).engagementRedisCluster?.stop();
}
