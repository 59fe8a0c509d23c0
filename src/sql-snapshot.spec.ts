import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { collectQueries, renderSnapshot, snapshotDrift, type SnapshotDrift } from '../test/support/sql-snapshot';

const ROOT = join(__dirname, '..');

/** One line per snapshot file that is not what the code generates. */
function driftReport(drift: SnapshotDrift): string[] {
  const run = 'run `npm run sql:snapshot` and commit src/queries';
  return [
    ...drift.changed.map((path) => `${path} differs from the SQL in the code: ${run}`),
    ...drift.missing.map((path) => `${path} is missing: ${run}`),
    ...drift.stale.map((path) => `${path} is stale (no statement in the code produces it): ${run}`),
  ];
}

describe('the SQL snapshot (src/queries)', () => {
  it('is what the code generates', () => {
    expect(driftReport(snapshotDrift(ROOT, renderSnapshot(collectQueries(ROOT))))).toEqual([]);
  }, 60_000);
});

describe('the SQL snapshot generator', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const writeSnapshot = () => {
    for (const [path, text] of renderSnapshot(collectQueries(root))) write(path, text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sql-snapshot-'));
    write(
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: { module: 'node20', moduleResolution: 'node16', target: 'ES2023', strict: true },
        include: ['src/**/*.ts'],
      }),
    );
    write(
      'src/shared/statements.ts',
      `export interface Db { query(sql: unknown, params?: unknown[]): Promise<unknown[]> }
export const FIND_ONE = \`SELECT id, name FROM things
        WHERE id = $1\`;
export const SQL = { count: 'SELECT count(*) FROM things' };
/** A statement prepared by name: its SQL arrives as a parameter. */
export function prepared(db: Db, text: string, values: unknown[]) {
  return db.query({ name: 'statement', text, values });
}
`,
    );
    write('src/shared/index.ts', `export * from './statements';`);
    write(
      'src/a/things.repository.ts',
      `import { FIND_ONE, SQL, prepared, type Db } from '../shared';
const COLUMNS = 'id, name';
export class ThingsRepository {
  constructor(private readonly db: Db) {}
  findOne(id: string) {
    return this.db.query(FIND_ONE, [id]);
  }
  count() {
    return this.db.query(SQL.count);
  }
  all() {
    return this.db.query(\`SELECT \${COLUMNS} FROM things\`);
  }
  list(where: string) {
    const run = (sql: string) => prepared(this.db, sql, []);
    return run(\`SELECT \${COLUMNS}
                  FROM things WHERE \${where}\`);
  }
  ofTable(table: string) {
    const sql = statementFor(table);
    return this.db.query(sql);
  }
  async twice() {
    await this.db.query('SELECT 1');
    return this.db.query('SELECT 2');
  }
}
function statementFor(table: string) {
  return \`SELECT * FROM \${table}\`;
}
`,
    );
    write(
      'src/b/things.repository.ts',
      `import type { Db } from '../shared/statements';
export async function purge(db: Db) {
  await db.query('DELETE FROM things');
}
`,
    );
    write('src/a/things.repository.spec.ts', `export const probe = (db: any) => db.query('SELECT spec');`);
    write('src/database/migrations/1-Init.ts', `export const up = (db: any) => db.query('CREATE TABLE things ()');`);
    write(
      'src/a/no-statements.ts',
      `export const page = (request: { query(options: object): void }) => request.query({ page: 1 });`,
    );
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes each source file’s statements in source order, constants resolved and the rest verbatim', () => {
    const snapshot = renderSnapshot(collectQueries(root));

    expect([...snapshot.keys()]).toEqual([
      'src/queries/a.things.repository.sql',
      'src/queries/b.things.repository.sql',
    ]);
    expect(snapshot.get('src/queries/a.things.repository.sql')).toBe(
      `-- Generated from src/a/things.repository.ts by \`npm run sql:snapshot\`; do not edit.

-- ThingsRepository.findOne
SELECT id, name FROM things
WHERE id = $1

-- ThingsRepository.count
SELECT count(*) FROM things

-- ThingsRepository.all
SELECT \${COLUMNS} FROM things

-- ThingsRepository.list
SELECT \${COLUMNS}
FROM things WHERE \${where}

-- ThingsRepository.ofTable
-- not a literal: the SQL is what this expression returns at run time
\${statementFor(table)}

-- ThingsRepository.twice
SELECT 1

-- ThingsRepository.twice (2)
SELECT 2
`,
    );
    expect(snapshot.get('src/queries/b.things.repository.sql')).toContain('-- purge\nDELETE FROM things\n');
  });

  it('tells which statements hold interpolations, and the text of those whose interpolations all name constants', () => {
    const [things] = collectQueries(root);
    expect(things.queries.map(({ name, interpolated, inlined }) => ({ name, interpolated, inlined }))).toEqual([
      { name: 'ThingsRepository.findOne', interpolated: false, inlined: undefined },
      { name: 'ThingsRepository.count', interpolated: false, inlined: undefined },
      { name: 'ThingsRepository.all', interpolated: true, inlined: 'SELECT id, name FROM things' },
      { name: 'ThingsRepository.list', interpolated: true, inlined: undefined },
      { name: 'ThingsRepository.ofTable', interpolated: true, inlined: undefined },
      { name: 'ThingsRepository.twice', interpolated: false, inlined: undefined },
      { name: 'ThingsRepository.twice (2)', interpolated: false, inlined: undefined },
    ]);
  });

  it('reports a changed statement, a new source of statements and a snapshot file no source produces', () => {
    writeSnapshot();
    expect(snapshotDrift(root, renderSnapshot(collectQueries(root)))).toEqual({ changed: [], missing: [], stale: [] });

    const source = join(root, 'src/a/things.repository.ts');
    writeFileSync(source, readFileSync(source, 'utf8').replace('SELECT 2', 'SELECT 3'));
    write('src/c/other.repository.ts', `export const one = (db: any) => db.query('SELECT 1');`);
    write('src/queries/gone.repository.sql', '-- SELECT 1');

    expect(driftReport(snapshotDrift(root, renderSnapshot(collectQueries(root))))).toEqual([
      'src/queries/a.things.repository.sql differs from the SQL in the code: run `npm run sql:snapshot` and commit src/queries',
      'src/queries/other.repository.sql is missing: run `npm run sql:snapshot` and commit src/queries',
      'src/queries/gone.repository.sql is stale (no statement in the code produces it): run `npm run sql:snapshot` and commit src/queries',
    ]);
  });
});
