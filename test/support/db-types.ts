/**
 * `npm run db:types`: writes src/common/database/schema.ts, the row types of every table, from a
 * scratch database that every migration has built (dropped afterwards). Run by Node itself (type
 * stripping) with the built data source options (the npm script builds first). The server is
 * TEST_ADMIN_DATABASE_URL's (a superuser URL; by default the local PostgreSQL), as for the tests.
 */
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { createMigratedDatabase, dropDatabase } from './scratch-database.ts';
import { SCHEMA_TYPES_FILE, schemaTypes } from './schema-types.ts';
import { ADMIN_DATABASE_URL } from './test-env.ts';

async function main(): Promise<void> {
  const root = process.cwd();
  const load = createRequire(join(root, 'package.json'));
  const { migrationDataSourceOptions } = load(join(root, 'dist', 'src', 'database', 'data-source-options.js')) as {
    migrationDataSourceOptions: (url: string, poolSize: number) => DataSourceOptions;
  };
  const name = `engagement_db_types_${Date.now()}_${process.pid}`;
  const url = await createMigratedDatabase(name, ADMIN_DATABASE_URL, (url) => migrationDataSourceOptions(url, 2));
  try {
    await writeFile(join(root, SCHEMA_TYPES_FILE), await schemaTypes(url));
  } finally {
    await dropDatabase(name, ADMIN_DATABASE_URL);
  }
  process.stdout.write(`${SCHEMA_TYPES_FILE} written from the migrated schema\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`db:types could not run: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
