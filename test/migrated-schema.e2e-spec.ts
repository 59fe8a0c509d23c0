import { Client } from 'pg';
import { READ_MODELS, TABLE_OWNERS } from '../src/database/table-owners';
import { visibleSession } from '../src/modules/sessions/visible-session';

/** What the run's freshly migrated database must hold beyond its tables' shapes (those: schema-types.e2e-spec.ts). */
describe('migrated schema', () => {
  const client = new Client({ connectionString: process.env.DATABASE_URL });

  beforeAll(() => client.connect());
  afterAll(() => client.end());

  it('runs on a supported PostgreSQL major (README "Run it": 15 to 18; 15 is the minimum, for UNIQUE NULLS NOT DISTINCT)', async () => {
    const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
    const major = Math.floor(Number(rows[0].server_version_num) / 10000);
    expect(major).toBeGreaterThanOrEqual(15);
    expect(major).toBeLessThanOrEqual(18);
  });

  it('uses the one definition of a visible session in every partial index and view that filters sessions by it, and no function filters by it', async () => {
    const { rows: functions } = await client.query<{ name: string; source: string }>(
      `SELECT p.proname AS name, p.prosrc AS source FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = current_schema() AND p.prosrc LIKE '%analysis_status%'`,
    );
    // The service writes what the triggers derived from sessions (migration SessionDerivedWrites, SessionsRepository.writeDerived).
    expect(functions.map((f) => f.name)).toEqual([]);
    const { rows: indexes } = await client.query<{ name: string; predicate: string }>(
      `SELECT c.relname AS name, pg_get_expr(i.indpred, i.indrelid) AS predicate FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'sessions'::regclass AND pg_get_expr(i.indpred, i.indrelid) LIKE '%analysis_status%'`,
    );
    expect(indexes.length).toBeGreaterThanOrEqual(2);
    // PostgreSQL stores a predicate with casts and parentheses: compare without them.
    const bare = (sql: string) => sql.replace(/::text|[()]/g, '');
    for (const { name, predicate } of indexes)
      expect({ name, uses: bare(predicate).startsWith(visibleSession()) }).toEqual({ name, uses: true });
    const { rows: views } = await client.query<{ definition: string }>(
      `SELECT pg_get_viewdef('visible_sessions'::regclass) AS definition`,
    );
    expect(bare(views[0].definition).replace(/\s+/g, ' ')).toContain(`WHERE ${visibleSession('sessions')}`);
  });

  it('declares the read models as views and every other owned name as a table', async () => {
    const { rows } = await client.query<{ name: string; kind: string }>(
      `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relname = ANY($1::text[])`,
      [Object.keys(TABLE_OWNERS)],
    );
    const views = rows.filter((row) => row.kind === 'v').map((row) => row.name);
    expect(views.sort()).toEqual([...READ_MODELS].sort());
    expect(rows.length).toBe(Object.keys(TABLE_OWNERS).length);
    expect(rows.filter((row) => row.kind !== 'v' && row.kind !== 'r' && row.kind !== 'p')).toEqual([]);
  });
});
