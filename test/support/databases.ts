import { DataSource } from 'typeorm';
import { createCitusDatabase, dropWorkerDatabases, parseCitusNodes } from '../../src/database/citus-cluster';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { distribute } from '../../src/database/distribution';
import { MIGRATIONS } from '../../src/database/migrations';
import * as scratch from './scratch-database.ts';
import { ADMIN_DATABASE_URL } from './test-env';

/**
 * The workers of a Citus cluster whose coordinator is TEST_ADMIN_DATABASE_URL's server
 * (`host:port,host:port`): set, every scratch database is made a Citus database and distributed
 * after its migrations (docs/scaling.md, the Citus run). Unset: plain PostgreSQL.
 */
const CITUS_WORKERS = parseCitusNodes(process.env.TEST_CITUS_WORKERS);

/** The suite runs on a Citus cluster (TEST_CITUS_WORKERS set). */
export const ON_CITUS = CITUS_WORKERS.length > 0;

/**
 * TEST_CITUS_EXPLAIN set: every statement on a scratch database logs its plan on the coordinator
 * (auto_explain), so that `npm run citus:routing -- <coordinator log>` can tell which statements
 * route to one shard (docs/scaling.md, "What routes to one shard"). Such a run measures routing
 * only: explaining a statement Citus plans in several steps with parameters fails it ("could not
 * create distributed plan"), so its pass/fail totals are not the suite's.
 */
const EXPLAIN_EVERY_STATEMENT = process.env.TEST_CITUS_EXPLAIN === '1';

/** A new database on the admin URL's server with every migration run (so migrations are exercised too); returns its URL. */
export async function createMigratedDatabase(name: string, adminUrl = ADMIN_DATABASE_URL): Promise<string> {
  if (!ON_CITUS) return scratch.createMigratedDatabase(name, adminUrl, (url) => dataSourceOptions(url, 2));
  return migratedCitusDatabase(name, adminUrl);
}

/**
 * On Citus: the database on the coordinator and every worker, the extension in each, the workers
 * added to its metadata (which is per database), the migrations run, then the distribution step.
 */
async function migratedCitusDatabase(name: string, adminUrl: string): Promise<string> {
  const url = await createCitusDatabase(
    adminUrl,
    name,
    CITUS_WORKERS,
    EXPLAIN_EVERY_STATEMENT
      ? [
          `ALTER DATABASE ${name} SET session_preload_libraries = 'auto_explain'`,
          `ALTER DATABASE ${name} SET auto_explain.log_min_duration = 0`,
          `ALTER DATABASE ${name} SET auto_explain.log_format = 'json'`,
        ]
      : [],
  );
  const dataSource = new DataSource(dataSourceOptions(url, 2));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    await distribute(dataSource);
  } finally {
    await dataSource.destroy();
  }
  return url;
}

/**
 * A database as it was before migration `before` (named as MIGRATIONS name it): any database of that
 * name dropped, then every earlier migration run. The specs of a migration fill it and run the rest.
 */
export async function createDatabaseBefore(name: string, before: string): Promise<string> {
  const at = MIGRATIONS.findIndex((migration) => migration.name === before);
  if (at < 1) throw new Error(`No migration ${before} after the first`);
  await dropDatabase(name);
  return scratch.createMigratedDatabase(name, ADMIN_DATABASE_URL, (url) => ({
    ...dataSourceOptions(url, 1),
    migrations: MIGRATIONS.slice(0, at),
  }));
}

/** Drops the database, closing the sessions still connected to it (on every Citus worker too). */
export async function dropDatabase(name: string, adminUrl = ADMIN_DATABASE_URL): Promise<void> {
  await scratch.dropDatabase(name, adminUrl);
  await dropWorkerDatabases(adminUrl, name, CITUS_WORKERS);
}
