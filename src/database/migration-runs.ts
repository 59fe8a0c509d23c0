import type { DataSource } from 'typeorm';
import { CitusNotInstalledError, distribute, type DistributionOutcome } from './distribution';

/** What `migration:run` did: the migrations it applied and, on Citus, what the distribution step did. */
export interface MigrationRun {
  applied: string[];
  distribution?: DistributionOutcome;
}

/**
 * Runs the pending migrations, each in its own transaction (or none, as it declares), then, on a
 * Citus cluster, the distribution step: the tables an upgrade's migrations created are distributed
 * before any instance of the release starts (docs/scaling.md, "Upgrading a Citus cluster").
 */
export async function runPendingMigrations(dataSource: DataSource): Promise<MigrationRun> {
  const applied = (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
  const distribution = await distribute(dataSource).catch((error: unknown) => {
    if (error instanceof CitusNotInstalledError) return undefined;
    throw error;
  });
  return distribution ? { applied, distribution } : { applied };
}

/**
 * Reverts the last migration run (`migration:revert`); returns its name, or null when none has run.
 * TypeORM's revert opens a transaction even for a migration that declares `transaction = false` (an
 * index dropped or built CONCURRENTLY cannot run in one, a backfill that takes its own): such a
 * migration is reverted without.
 */
export async function revertLastMigration(dataSource: DataSource): Promise<string | null> {
  const [last] = await dataSource
    .query<{ name: string }[]>('SELECT name FROM typeorm_migrations ORDER BY timestamp DESC LIMIT 1')
    .catch(() => []);
  const ownTransaction = dataSource.migrations.find((migration) => migration.name === last?.name)?.transaction;
  await dataSource.undoLastMigration({ transaction: ownTransaction === false ? 'none' : 'each' });
  return last?.name ?? null;
}
