import { Client } from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { databaseUrlFor } from './test-env.ts';

/**
 * Scratch databases on a PostgreSQL server, given the admin URL and how to reach a database. Imports
 * nothing of src/ so that Node runs it as it is (type stripping) for `npm run db:types`, with the
 * built data source options; test/support/databases.ts gives the specs the same with src's own.
 */

/** Runs the statements in order on one admin connection (each on its own: DROP DATABASE refuses a transaction). */
async function asAdmin(adminUrl: string, ...statements: string[]): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const statement of statements) await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A new database on the admin URL's server with every migration of `options` run; returns its URL. */
export async function createMigratedDatabase(
  name: string,
  adminUrl: string,
  options: (url: string) => DataSourceOptions,
): Promise<string> {
  await asAdmin(adminUrl, `CREATE DATABASE ${name}`);
  const url = databaseUrlFor(name, adminUrl);
  const dataSource = new DataSource(options(url));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
  return url;
}

/**
 * Drops the database, closing the sessions still connected to it. Sessions already leaving get up
 * to a second to go first: a pool whose end() has resolved may still be closing a connection, and
 * FORCE would terminate it mid-goodbye, which its client raises as an unhandled error in the spec.
 */
export async function dropDatabase(name: string, adminUrl: string): Promise<void> {
  await asAdmin(
    adminUrl,
    `DO $$ BEGIN
       FOR attempt IN 1..20 LOOP
         EXIT WHEN NOT EXISTS (SELECT FROM pg_stat_activity WHERE datname = '${name}');
         PERFORM pg_sleep(0.05);
       END LOOP;
     END $$`,
    `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
  );
}
