import { dataSourceOptions } from '../../src/database/data-source-options';
import * as scratch from './scratch-database.ts';
import { ADMIN_DATABASE_URL } from './test-env';

/** A new database on the admin URL's server with every migration run (so migrations are exercised too); returns its URL. */
export function createMigratedDatabase(name: string, adminUrl = ADMIN_DATABASE_URL): Promise<string> {
  return scratch.createMigratedDatabase(name, adminUrl, (url) => dataSourceOptions(url, 2));
}

/** Drops the database, closing the sessions still connected to it. */
export function dropDatabase(name: string, adminUrl = ADMIN_DATABASE_URL): Promise<void> {
  return scratch.dropDatabase(name, adminUrl);
}
