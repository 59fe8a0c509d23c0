import { DataSource } from 'typeorm';
import { createCitusDatabase, dropWorkerDatabases, parseCitusNodes } from '../../src/database/citus-cluster';
import { migrationDataSourceOptions } from '../../src/database/data-source-options';
import { runPendingMigrations } from '../../src/database/migration-runs';
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
  if (!ON_CITUS) return scratch.createMigratedDatabase(name, adminUrl, (url) => migrationDataSourceOptions(url, 2));
  return migratedCitusDatabase(name, adminUrl);
}

/**
 * The last migration of the first schema that ran on Citus (docs/scaling.md, the third run). A
 * cluster upgraded since runs each later migration on distributed tables, then the distribution
 * step, which distributes the tables they created: on Citus, a database before one of them is
 * distributed, so that its spec runs it as an upgrade does.
 */
export const FIRST_CITUS_SCHEMA = 'LinkAccess1767300000000';

/**
 * On Citus: the database on the coordinator and every worker, the extension in each, the workers
 * added to its metadata (which is per database), `migrations` run, then the distribution step.
 */
async function migratedCitusDatabase(name: string, adminUrl: string, migrations = MIGRATIONS): Promise<string> {
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
  await migrate(url, migrations);
  return url;
}

/** Runs the migrations of `migrations` not yet run as `migration:run` does (on Citus, then the distribution step); returns their names. */
export async function migrate(url: string, migrations = MIGRATIONS): Promise<string[]> {
  const dataSource = new DataSource({ ...migrationDataSourceOptions(url, 2), migrations });
  await dataSource.initialize();
  try {
    return (await runPendingMigrations(dataSource)).applied;
  } finally {
    await dataSource.destroy();
  }
}

/**
 * A database as it was before migration `before` (named as MIGRATIONS name it): any database of that
 * name dropped, then every earlier migration run; on Citus and after FIRST_CITUS_SCHEMA, distributed.
 * The specs of a migration fill it and run the rest (`migrate`).
 */
export async function createDatabaseBefore(name: string, before: string): Promise<string> {
  const at = MIGRATIONS.findIndex((migration) => migration.name === before);
  if (at < 1) throw new Error(`No migration ${before} after the first`);
  await dropDatabase(name);
  const migrations = MIGRATIONS.slice(0, at);
  if (ON_CITUS && at > MIGRATIONS.findIndex((migration) => migration.name === FIRST_CITUS_SCHEMA))
    return migratedCitusDatabase(name, ADMIN_DATABASE_URL, migrations);
  return scratch.createMigratedDatabase(name, ADMIN_DATABASE_URL, (url) => ({
    ...migrationDataSourceOptions(url),
    migrations,
  }));
}

/** Drops the database, closing the sessions still connected to it (on every Citus worker too). */
export async function dropDatabase(name: string, adminUrl = ADMIN_DATABASE_URL): Promise<void> {
  await scratch.dropDatabase(name, adminUrl);
  await dropWorkerDatabases(adminUrl, name, CITUS_WORKERS);
}
