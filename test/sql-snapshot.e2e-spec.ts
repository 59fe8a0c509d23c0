import { Client, DatabaseError } from 'pg';
import { join } from 'node:path';
import { ON_CITUS } from './support/databases';
import { collectQueries, type SnapshotFile } from './support/sql-snapshot';
import { databaseUrlFor } from './support/test-env';

const ROOT = join(__dirname, '..');

/** What PREPARE takes; any other statement (DDL, SET, LOCK) is a utility statement it cannot analyse. */
const PREPARABLE = /^(?:SELECT|INSERT|UPDATE|DELETE|MERGE|VALUES|WITH|TABLE)\b/i;
/** A session's temporary tables: the code creates them as it runs (with names built at run time). */
const TEMPORARY_TABLES = /\bpg_temp\./i;
/** Citus's catalog (the distribution step reads it): absent from plain PostgreSQL, checked by the Citus run (docs/scaling.md). */
const CITUS_CATALOG = /\bpg_dist_\w+/i;
/** PostgreSQL's indeterminate_datatype: a parameter whose type only the caller's value gives. */
const UNTYPED_PARAMETER = '42P18';

interface Outcome {
  static: number;
  /** Statements whose every interpolation names a constant, checked with the constants in place. */
  constant: number;
  prepared: number;
  /** Analysed, but a parameter's type depends on the value the code passes. */
  untyped: string[];
  /** Utility statements and statements on temporary tables: not checked. */
  skipped: string[];
  failures: string[];
  /** Statements whose text is only known at run time: not checked. */
  runTime: number;
}

/**
 * Has PostgreSQL parse, analyse and plan every statement of the snapshot whose text is known without
 * running the code (no interpolation, or constants only) against the migrated schema, in one
 * transaction that is rolled back: PREPARE resolves every table, column, function and type, and
 * EXPLAIN EXECUTE plans it with null parameters (nothing runs).
 */
async function planAll(client: Client, files: SnapshotFile[]): Promise<Outcome> {
  const outcome: Outcome = { static: 0, constant: 0, prepared: 0, untyped: [], skipped: [], failures: [], runTime: 0 };
  await client.query('BEGIN');
  try {
    for (const file of files) {
      for (const query of file.queries) {
        const sql = query.interpolated ? query.inlined : query.sql;
        if (sql === undefined) {
          outcome.runTime++;
          continue;
        }
        if (query.interpolated) outcome.constant++;
        else outcome.static++;
        const label = `${file.target}: -- ${query.name}`;
        if (!PREPARABLE.test(sql) || TEMPORARY_TABLES.test(sql) || CITUS_CATALOG.test(sql)) {
          outcome.skipped.push(label);
          continue;
        }
        await client.query('SAVEPOINT statement');
        try {
          await prepareAndPlan(client, sql);
          await client.query('RELEASE SAVEPOINT statement');
          outcome.prepared++;
        } catch (error) {
          await client.query('ROLLBACK TO SAVEPOINT statement');
          if (error instanceof DatabaseError && error.code === UNTYPED_PARAMETER) outcome.untyped.push(label);
          else outcome.failures.push(`${label}\n${(error as Error).message}\n${sql}`);
        } finally {
          // Prepared statements outlive a rollback, and no statement runs in an aborted transaction.
          await client.query('DEALLOCATE ALL');
        }
      }
    }
  } finally {
    await client.query('ROLLBACK');
  }
  return outcome;
}

async function prepareAndPlan(client: Client, sql: string): Promise<void> {
  await client.query(`PREPARE snapshot_statement AS ${sql}`);
  // Citus plans a statement with its parameters' values: a NULL organization has no shard to plan for.
  if (ON_CITUS) return;
  const [{ parameters }] = (
    await client.query<{ parameters: number }>(
      `SELECT cardinality(parameter_types) AS parameters FROM pg_prepared_statements WHERE name = 'snapshot_statement'`,
    )
  ).rows;
  const nulls = parameters === 0 ? '' : `(${Array(parameters).fill('NULL').join(', ')})`;
  await client.query(`EXPLAIN (COSTS OFF) EXECUTE snapshot_statement${nulls}`);
}

/**
 * The SQL snapshot (src/queries, issue 31) against the run's migrated database: a statement naming a
 * column, table or function the migrations do not create fails here, in CI, instead of at run time.
 * Statements with `${...}` are only known at run time (the e2e specs that run them cover them).
 */
describe('the SQL snapshot against the migrated schema', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ connectionString: databaseUrlFor(process.env.TEST_DATABASE_NAME!) });
    await client.connect();
  });

  afterAll(() => client.end());

  it('PostgreSQL analyses and plans every statement without interpolations or with constant ones only', async () => {
    const outcome = await planAll(client, collectQueries(ROOT));

    process.stdout.write(
      `sql snapshot: ${outcome.static} static statements and ${outcome.constant} with constant interpolations: ` +
        `${outcome.prepared} planned, ${outcome.untyped.length} with an untyped parameter, ${outcome.skipped.length} ` +
        `utility or on temporary tables; ${outcome.runTime} built at run time\n`,
    );
    expect(outcome.failures).toEqual([]);
    expect(outcome.prepared).toBeGreaterThan(0);
  }, 60_000);

  it('fails each statement that names a column the table does not have, by its header; an untyped parameter is counted apart', async () => {
    const renamed: SnapshotFile = {
      source: 'src/modules/custom-links/custom-links.repository.ts',
      target: 'src/queries/custom-links.repository.sql',
      queries: [
        {
          name: 'CustomLinksRepository.isActive',
          sql: 'SELECT active FROM custom_links WHERE id = $1',
          interpolated: false,
        },
        {
          name: 'CustomLinksRepository.findBySlug',
          sql: 'SELECT enabled FROM custom_links WHERE slug = $1',
          interpolated: false,
        },
        {
          name: 'CustomLinksRepository.findActive',
          sql: 'SELECT ${COLUMNS} FROM custom_links WHERE id = $1',
          interpolated: true,
          inlined: 'SELECT id, enabled FROM custom_links WHERE id = $1',
        },
        { name: 'CustomLinksRepository.list', sql: 'SELECT * FROM custom_links WHERE ${where}', interpolated: true },
        { name: 'CustomLinksRepository.probe', sql: 'SELECT 1 WHERE $1 IS NULL', interpolated: false },
      ],
    };

    const outcome = await planAll(client, [renamed]);

    expect(outcome).toMatchObject({ static: 3, constant: 1, prepared: 1, runTime: 1 });
    expect(outcome.untyped).toEqual(['src/queries/custom-links.repository.sql: -- CustomLinksRepository.probe']);
    expect(outcome.failures).toEqual([
      expect.stringMatching(
        /^src\/queries\/custom-links\.repository\.sql: -- CustomLinksRepository\.findBySlug\ncolumn "enabled" does not exist\n/,
      ),
      expect.stringMatching(
        /^src\/queries\/custom-links\.repository\.sql: -- CustomLinksRepository\.findActive\ncolumn "enabled" does not exist\n/,
      ),
    ]);
  });
});
