import { Client } from 'pg';

/**
 * The migrated schema stays distributable on Citus by organization (issue 35, docs/scaling.md
 * "Citus compatibility (schema)"): CI has no Citus, so each of Citus's refusals that the schema once
 * hit is a rule on the catalog here. The statements' half (now() in ON CONFLICT … DO UPDATE, CASE in
 * DML, SKIP LOCKED sweeps) is test/citus-statements.e2e-spec.ts.
 *
 * A tenant table has an `organization_id` column: on Citus it is distributed by it, and
 * `organizations` by `id`, in one co-location group.
 */

/**
 * Global lookup tables, reference tables on Citus: each is keyed by a value unique across
 * organizations, which is the point of it, and holds the organization to route to.
 */
const LOOKUP_TABLES: Record<string, string> = {
  api_key_lookups:
    'key authentication finds a key by its hash, and the admin revocation by its id, before the organization',
  session_ids: 'a session id is unique across organizations; ingestion finds which one holds it',
  custom_link_slugs: 'GET /l/{slug} and the public card route find a link by slug or id before the organization',
};

const TENANT_TABLES = `
  SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
     AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped)`;
/** Tenant tables and `organizations` (distributed by its id). */
const DISTRIBUTED_TABLES = `${TENANT_TABLES} UNION ALL SELECT 'organizations'::regclass::oid, 'organizations'`;
const hasOrganizationId = (relation: string, columns: string) => `EXISTS (
  SELECT 1 FROM pg_attribute a WHERE a.attrelid = ${relation} AND a.attname = 'organization_id' AND a.attnum = ANY(${columns}))`;

/** Each rule: a query listing what breaks it, one line per offender. */
const RULES: Record<string, string> = {
  'a unique index (primary key, unique constraint) of a tenant table holds organization_id': `
    SELECT t.relname || ': ' || i.indexrelid::regclass AS offender
      FROM pg_index i JOIN (${TENANT_TABLES}) t ON t.oid = i.indrelid
     WHERE i.indisunique AND NOT ${hasOrganizationId('i.indrelid', 'i.indkey')}
       AND t.relname NOT IN (${Object.keys(LOOKUP_TABLES)
         .map((table) => `'${table}'`)
         .join(', ')})`,
  'no trigger uses transition tables': `
    SELECT tgrelid::regclass || ': ' || tgname AS offender FROM pg_trigger
     WHERE NOT tgisinternal AND (tgoldtable IS NOT NULL OR tgnewtable IS NOT NULL)`,
  'every trigger on a distributed table is row-level': `
    SELECT t.relname || ': ' || g.tgname AS offender FROM pg_trigger g JOIN (${DISTRIBUTED_TABLES}) t ON t.oid = g.tgrelid
     WHERE NOT g.tgisinternal AND g.tgtype & 1 = 0`,
  // On Citus a trigger fires on the shard, where it cannot run a distributed statement: the work a
  // write implies in other tables is its writer's, in the writing transaction. A BEFORE trigger may
  // change the row it fires for; an AFTER trigger exists only to write elsewhere.
  'a trigger on a distributed table only changes its own row (BEFORE, its function writing no table)': `
    SELECT t.relname || ': ' || g.tgname AS offender
      FROM pg_trigger g JOIN (${DISTRIBUTED_TABLES}) t ON t.oid = g.tgrelid JOIN pg_proc p ON p.oid = g.tgfoid
     WHERE NOT g.tgisinternal
       AND (g.tgtype & 2 = 0 OR p.prosrc ~* '\\m(insert|update|delete|truncate|merge|copy|perform|execute)\\M')`,
  'every foreign key of a tenant table holds organization_id': `
    SELECT t.relname || ': ' || k.conname AS offender FROM pg_constraint k JOIN (${TENANT_TABLES}) t ON t.oid = k.conrelid
     WHERE k.contype = 'f' AND NOT ${hasOrganizationId('k.conrelid', 'k.conkey')}`,
  'no foreign key sets part of itself (or a composite key) to NULL or DEFAULT': `
    SELECT conrelid::regclass || ': ' || conname AS offender FROM pg_constraint
     WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
       AND (confdeltype IN ('n', 'd') OR confupdtype IN ('n', 'd'))
       AND (cardinality(conkey) > 1 OR confdelsetcols IS NOT NULL)`,
};

/** What breaks each rule, created in a transaction that is rolled back. */
const OFFENDERS: Record<keyof typeof RULES, { ddl: string[]; offender: string | string[] }> = {
  'a unique index (primary key, unique constraint) of a tenant table holds organization_id': {
    ddl: [
      `CREATE TABLE citus_probe (organization_id uuid NOT NULL, id uuid NOT NULL, CONSTRAINT citus_probe_id_key UNIQUE (id))`,
    ],
    offender: 'citus_probe: citus_probe_id_key',
  },
  'no trigger uses transition tables': {
    ddl: [
      `CREATE FUNCTION citus_probe_track() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
      `CREATE TRIGGER citus_probe_track AFTER INSERT ON api_keys REFERENCING NEW TABLE AS new_rows
         FOR EACH STATEMENT EXECUTE FUNCTION citus_probe_track()`,
    ],
    offender: 'api_keys: citus_probe_track',
  },
  'every trigger on a distributed table is row-level': {
    ddl: [
      `CREATE FUNCTION citus_probe_track() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
      `CREATE TRIGGER citus_probe_track AFTER DELETE ON organizations FOR EACH STATEMENT EXECUTE FUNCTION citus_probe_track()`,
    ],
    offender: 'organizations: citus_probe_track',
  },
  'a trigger on a distributed table only changes its own row (BEFORE, its function writing no table)': {
    ddl: [
      `CREATE FUNCTION citus_probe_track() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
      `CREATE TRIGGER citus_probe_track AFTER UPDATE ON custom_links FOR EACH ROW EXECUTE FUNCTION citus_probe_track()`,
      `CREATE FUNCTION citus_probe_count() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN INSERT INTO session_count_deltas SELECT * FROM session_count_deltas WHERE false; RETURN NEW; END $$`,
      `CREATE TRIGGER citus_probe_count BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION citus_probe_count()`,
    ],
    offender: ['custom_links: citus_probe_track', 'sessions: citus_probe_count'],
  },
  'every foreign key of a tenant table holds organization_id': {
    ddl: [
      `CREATE TABLE citus_probe (organization_id uuid NOT NULL, key_id uuid NOT NULL,
         CONSTRAINT citus_probe_key_fkey FOREIGN KEY (key_id) REFERENCES api_key_lookups (id))`,
    ],
    offender: 'citus_probe: citus_probe_key_fkey',
  },
  'no foreign key sets part of itself (or a composite key) to NULL or DEFAULT': {
    ddl: [
      `CREATE TABLE citus_probe (organization_id uuid NOT NULL, campaign_id uuid,
         CONSTRAINT citus_probe_campaign_fkey FOREIGN KEY (organization_id, campaign_id)
           REFERENCES campaigns (organization_id, id) ON DELETE SET NULL (campaign_id))`,
    ],
    offender: 'citus_probe: citus_probe_campaign_fkey',
  },
};

describe('Citus compatibility of the migrated schema', () => {
  const client = new Client({ connectionString: process.env.DATABASE_URL });

  beforeAll(() => client.connect());
  afterAll(() => client.end());

  const offenders = async (rule: string): Promise<string[]> => {
    const { rows } = await client.query<{ offender: string }>(RULES[rule]);
    return rows.map((row) => row.offender).sort();
  };

  describe.each(Object.keys(RULES))('%s', (rule) => {
    it('holds for every table of the schema', async () => {
      expect(await offenders(rule)).toEqual([]);
    });

    it('reports a table that breaks it', async () => {
      const { ddl, offender } = OFFENDERS[rule];
      await client.query('BEGIN');
      try {
        for (const statement of ddl) await client.query(statement);
        expect(await offenders(rule)).toEqual(expect.arrayContaining([offender].flat()));
      } finally {
        await client.query('ROLLBACK');
      }
    });
  });

  it('lists as lookup tables only tables that exist, each keyed by its global value alone', async () => {
    const { rows } = await client.query<{ relname: string; key: string }>(
      `SELECT c.relname, pg_get_constraintdef(k.oid) AS key FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
        WHERE k.contype = 'p' AND c.relname = ANY($1::text[]) ORDER BY c.relname`,
      [Object.keys(LOOKUP_TABLES)],
    );
    expect(rows.map((row) => row.relname)).toEqual(Object.keys(LOOKUP_TABLES).sort());
    for (const { relname, key } of rows)
      expect({ relname, key }).toEqual({ relname, key: expect.not.stringContaining('organization_id') });
  });
});
