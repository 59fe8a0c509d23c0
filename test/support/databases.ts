import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { ADMIN_DATABASE_URL, databaseUrlFor } from './test-env';

async function asAdmin(adminUrl: string, statement: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A new database on the admin URL's server with every migration run (so migrations are exercised too); returns its URL. */
export async function createMigratedDatabase(name: string, adminUrl = ADMIN_DATABASE_URL): Promise<string> {
  await asAdmin(adminUrl, `CREATE DATABASE ${name}`);
  const url = databaseUrlFor(name, adminUrl);
  const dataSource = new DataSource(dataSourceOptions(url, 2));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
  return url;
}

/** Drops the database, closing the sessions still connected to it. */
export function dropDatabase(name: string, adminUrl = ADMIN_DATABASE_URL): Promise<void> {
  return asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
