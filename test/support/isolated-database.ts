import { randomUUID } from 'node:crypto';
import { createMigratedDatabase, dropDatabase } from './databases';

/** A spec's own database and queue prefix: the variables an app or a process gets, and the drop. */
export interface IsolatedServices {
  env: { DATABASE_URL: string; QUEUE_PREFIX: string };
  drop: () => Promise<void>;
}

/**
 * A database and queue prefix of a spec's own. In the run's shared database and queues, any other
 * spec's app or worker takes jobs, deliveries and folds: specs whose apps deliver webhooks to local
 * receivers (another app would send them under its own configuration), specs that check which
 * process ran a job or what its log says, and specs that stall a dependency under a service (it
 * would hold other specs' jobs and locks) run on their own.
 */
export async function isolatedServices(name: string): Promise<IsolatedServices> {
  const database = `engagement_${name}_${process.pid}_${Date.now()}`;
  const env = { DATABASE_URL: await createMigratedDatabase(database), QUEUE_PREFIX: `bull-${name}-${randomUUID()}` };
  return { env, drop: () => dropDatabase(database) };
}
