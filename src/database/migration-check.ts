import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource, type EntityMetadata, type QueryRunner, type Table } from 'typeorm';
import type { SqlInMemory } from 'typeorm/driver/SqlInMemory';
import { RdbmsSchemaBuilder } from 'typeorm/schema-builder/RdbmsSchemaBuilder';
import { dataSourceOptions } from './data-source-options';

/**
 * `npm run migration:check`: do the entities declare exactly the schema the migrations build?
 *
 * Migrates a scratch database from scratch, asks TypeORM for the statements that would bring that
 * schema to the entities' (what `typeorm migration:generate --check --dryrun` prints) and prints them.
 * Exits 1 when there is any, or any of the differences TypeORM's diff does not look at (a table
 * without an entity, a `synchronize: false` index the database lacks); 0 when entities and migrations
 * agree; 2 when the check could not run. The scratch database is dropped in every case. Never
 * imported by the app.
 *
 * Env: MIGRATION_CHECK_ADMIN_URL, a superuser URL of the server to use (default below).
 */

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * TypeORM's schema diff (RdbmsSchemaBuilder.log(), as `migration:generate` runs it) with two additions
 * for what this schema has and TypeORM cannot read or declare on its own; everything else is TypeORM's.
 *
 * - Generated columns: TypeORM reads a generated column's expression from its own `typeorm_metadata`
 *   table, which it writes only when it creates the column itself. Our migrations are hand-written, so
 *   the table does not exist and loading custom_links would fail. The builder's session gets a
 *   temporary `typeorm_metadata` holding, for each generated column, the entity's expression when
 *   PostgreSQL parses it to the same expression as the database column's, and the database's own
 *   expression otherwise (which TypeORM then reports as a change). Nothing persists.
 * - Entities declared `synchronize: false` (the tables without a primary key: TypeORM requires primary
 *   columns, and its diff would add a primary key) are compared too. Where their table has no primary
 *   key, the columns the entity declares primary stand for one; all else is compared as usual.
 */
class MigrationCheckSchemaBuilder extends RdbmsSchemaBuilder {
  protected override get entityToSyncMetadatas(): EntityMetadata[] {
    return this.dataSource.entityMetadatas.filter((metadata) => metadata.tableType === 'regular');
  }

  /** RdbmsSchemaBuilder.log() with the two additions above. */
  override async log(): Promise<SqlInMemory> {
    this.queryRunner = this.dataSource.createQueryRunner();
    try {
      await recordGeneratedColumns(this.queryRunner, this.entityToSyncMetadatas);
      this.tables = await this.queryRunner.getTables(
        this.entityToSyncMetadatas.map((metadata) => this.tablePath(metadata)),
      );
      this.views = await this.queryRunner.getViews(
        this.viewEntityToSyncMetadatas.map((metadata) => this.tablePath(metadata)),
      );
      this.adoptDeclaredPrimaryColumns();
      this.queryRunner.enableSqlMemory();
      await this.executeSchemaSyncOperationsInProperOrder();
      return this.queryRunner.getMemorySql();
    } finally {
      this.queryRunner.disableSqlMemory();
      try {
        await this.queryRunner.query(`DROP TABLE IF EXISTS pg_temp.typeorm_metadata`);
      } finally {
        await this.queryRunner.release();
      }
    }
  }

  /** RdbmsSchemaBuilder's private getTablePath(), as log() uses it. */
  private tablePath(target: EntityMetadata | Table): string {
    const { tableName, schema, database } = this.dataSource.driver.parseTableName(target);
    return this.dataSource.driver.buildTableName(tableName, schema, database);
  }

  private adoptDeclaredPrimaryColumns(): void {
    for (const metadata of this.entityToSyncMetadatas.filter((m) => !m.synchronize)) {
      const table = this.tables.find((t) => this.tablePath(t) === this.tablePath(metadata));
      if (!table || table.columns.some((column) => column.isPrimary)) continue;
      for (const primary of metadata.primaryColumns) {
        const column = table.columns.find((c) => c.name === primary.databaseName);
        if (column) column.isPrimary = true;
      }
    }
  }
}

/** See MigrationCheckSchemaBuilder: a temporary typeorm_metadata with each generated column's expression. */
async function recordGeneratedColumns(queryRunner: QueryRunner, metadatas: EntityMetadata[]): Promise<void> {
  await queryRunner.query(`DROP TABLE IF EXISTS pg_temp.typeorm_metadata`);
  await queryRunner.query(`
    CREATE TEMPORARY TABLE typeorm_metadata (
      type varchar NOT NULL, database varchar, schema varchar, "table" varchar, name varchar, value text)`);
  const generated: { schema: string; table: string; name: string; type: string; expression: string }[] =
    await queryRunner.query(`
    SELECT n.nspname AS schema, c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
           pg_get_expr(d.adbin, d.adrelid) AS expression
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attgenerated = 's' AND NOT a.attisdropped AND n.nspname = current_schema()`);
  for (const column of generated) {
    const declared = metadatas
      .find((metadata) => metadata.tableName === column.table)
      ?.columns.find((c) => c.databaseName === column.name && c.asExpression !== undefined)?.asExpression;
    const same =
      declared !== undefined && (await parsedExpression(queryRunner, column, declared)) === column.expression;
    await queryRunner.query(
      `INSERT INTO pg_temp.typeorm_metadata (type, database, schema, "table", name, value)
       VALUES ('GENERATED_COLUMN', current_database(), $1, $2, $3, $4)`,
      [column.schema, column.table, column.name, same ? declared : column.expression],
    );
  }
}

/** How PostgreSQL stores `expression` as a generated column of `column`'s table and type (null when it does not parse there). */
async function parsedExpression(
  queryRunner: QueryRunner,
  column: { schema: string; table: string; type: string },
  expression: string,
): Promise<string | null> {
  const probe = 'pg_temp.typeorm_migration_check_probe';
  await queryRunner.query(`DROP TABLE IF EXISTS ${probe}`);
  await queryRunner.query(`CREATE TABLE ${probe} (LIKE "${column.schema}"."${column.table}")`);
  try {
    await queryRunner.query(
      `ALTER TABLE ${probe} ADD COLUMN typeorm_migration_check_probe ${column.type} GENERATED ALWAYS AS (${expression}) STORED`,
    );
    const [row]: { expression: string }[] = await queryRunner.query(
      `SELECT pg_get_expr(d.adbin, d.adrelid) AS expression FROM pg_attrdef d
         JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
        WHERE d.adrelid = '${probe}'::regclass AND a.attname = 'typeorm_migration_check_probe'`,
    );
    return row.expression;
  } catch {
    return null; // not a valid expression for this table: reported as a different expression
  } finally {
    await queryRunner.query(`DROP TABLE IF EXISTS ${probe}`);
  }
}

/**
 * The statements TypeORM would run to make the database match the entities of `dataSource` (empty when
 * they agree), each with its parameters, as `migration:generate` would write them.
 */
export async function schemaDiff(dataSource: DataSource): Promise<string[]> {
  const sql = await new MigrationCheckSchemaBuilder(dataSource).log();
  return sql.upQueries.map(({ query, parameters }) =>
    parameters?.length ? `${query} -- parameters: ${JSON.stringify(parameters)}` : query,
  );
}

/**
 * What TypeORM's diff never reports: tables of the current schema that no entity declares (it only
 * loads the entities' tables), and indexes declared `synchronize: false` that the database does not
 * have (it skips them entirely; it does report a database index no entity declares).
 */
export async function differencesTypeormIgnores(dataSource: DataSource): Promise<string[]> {
  const ignoredTables = new Set([dataSource.options.migrationsTableName ?? 'migrations', dataSource.metadataTableName]);
  const declaredTables = new Set(dataSource.entityMetadatas.map((metadata) => metadata.tableName));
  const tables: { name: string }[] = await dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const indexes: { table: string; name: string }[] = await dataSource.query(
    `SELECT tablename AS table, indexname AS name FROM pg_indexes WHERE schemaname = current_schema()`,
  );
  const existing = new Set(indexes.map((index) => `${index.table}.${index.name}`));
  return [
    ...tables
      .filter(({ name }) => !declaredTables.has(name) && !ignoredTables.has(name))
      .map(({ name }) => `table "${name}" has no entity`),
    ...dataSource.entityMetadatas.flatMap((metadata) =>
      metadata.indices
        .filter((index) => !index.synchronize && !existing.has(`${metadata.tableName}.${index.name}`))
        .map(
          (index) =>
            `index "${index.name}" of entity ${metadata.name} (synchronize: false) does not exist on table "${metadata.tableName}"`,
        ),
    ),
  ];
}

function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function main(): Promise<number> {
  const adminUrl = process.env.MIGRATION_CHECK_ADMIN_URL || DEFAULT_ADMIN_URL;
  const database = `engagement_migration_check_${Date.now()}_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
    try {
      const dataSource = new DataSource(dataSourceOptions(databaseUrl(adminUrl, database), 1));
      await dataSource.initialize();
      try {
        const migrations = await dataSource.runMigrations({ transaction: 'each' });
        const pending = await schemaDiff(dataSource);
        const ignored = await differencesTypeormIgnores(dataSource);
        if (pending.length > 0) {
          process.stdout.write(
            `Entities and migrations disagree: ${pending.length} pending schema change(s), as migration:generate would write them:\n\n`,
          );
          for (const query of pending) process.stdout.write(`${query};\n`);
          process.stdout.write('\n');
        }
        if (ignored.length > 0) {
          process.stdout.write(`Entities and migrations disagree where TypeORM's diff does not look:\n`);
          for (const difference of ignored) process.stdout.write(`  ${difference}\n`);
        }
        if (pending.length > 0 || ignored.length > 0) return 1;
        process.stdout.write(
          `No pending schema changes: ${dataSource.entityMetadatas.length} entities match the schema of ${migrations.length} migrations.\n`,
        );
        return 0;
      } finally {
        await dataSource.destroy();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `migration:check could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 2;
    },
  );
}
