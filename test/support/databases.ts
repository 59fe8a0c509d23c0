import { dataSourceOptions } from '../../src/database/data-source-options';
import { MIGRATIONS } from '../../src/database/migrations';
import * as scratch from './scratch-database.ts';
import { ADMIN_DATABASE_URL } from './test-env';

/** A new database on the admin URL's server with every migration run (so migrations are exercised too); returns its URL. */
export function createMigratedDatabase(name: string, adminUrl = ADMIN_DATABASE_URL): Promise<string> {
  return scratch.createMigratedDatabase(name, adminUrl, (url) => dataSourceOptions(url, 2));
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

/** Drops the database, closing the sessions still connected to it. */
export function dropDatabase(name: string, adminUrl = ADMIN_DATABASE_URL): Promise<void> {
  return scratch.dropDatabase(name, adminUrl);
}
