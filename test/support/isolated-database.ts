import { randomUUID } from 'node:crypto';
import { createMigratedDatabase, dropDatabase } from './databases';

/**
 * A database and queue prefix of a spec's own, for specs whose apps deliver webhooks to local
 * receivers: in the run's shared database, any app that dispatches would take their deliveries and
 * send them under its own configuration (private URLs refused, another retry schedule).
 */
export async function isolatedServices(
  name: string,
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const database = `engagement_${name}_${process.pid}_${Date.now()}`;
  const env = { DATABASE_URL: await createMigratedDatabase(database), QUEUE_PREFIX: `bull-${name}-${randomUUID()}` };
  return { env, drop: () => dropDatabase(database) };
}
