import type { DataSource } from 'typeorm';
import { distributionPlan, type DistributionStep, type ForeignKey, type SchemaTable } from './distribution-plan';

/** The database is plain PostgreSQL: there is nothing to distribute on. */
export class CitusNotInstalledError extends Error {
  constructor() {
    super('the citus extension is not installed in this database (CREATE EXTENSION citus)');
  }
}

/** What `db:distribute` did: the tables it distributed or made reference tables, and those it found done. */
export interface DistributionOutcome {
  distributed: string[];
  referenceTables: string[];
  alreadyDistributed: string[];
}

/**
 * The Citus distribution step (`cli db:distribute`, docs/scaling.md), run after `migration:run`:
 * reads the migrated schema, plans (distributionPlan) and runs each step. Idempotent: a table Citus
 * already knows is skipped, so a run cut short is finished by the next. Refuses a database without
 * the citus extension.
 */
export async function distribute(db: DataSource): Promise<DistributionOutcome> {
  const [citus] = await db.query<unknown[]>(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
  if (!citus) throw new CitusNotInstalledError();
  const tables = await db.query<SchemaTable[]>(
    `SELECT c.relname AS name,
            a.attnum IS NOT NULL AND NOT EXISTS (
              SELECT 1 FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'p' AND NOT a.attnum = ANY (k.conkey)
            ) AS tenant,
            (SELECT CASE WHEN count(*) = 1 AND bool_and(i.indnatts = 1) THEN min(k.attname::text) END
               FROM pg_index i LEFT JOIN pg_attribute k ON k.attrelid = i.indrelid AND k.attnum = i.indkey[0]
              WHERE i.indrelid = c.oid AND i.indisunique) AS "soleKey"
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
  );
  const foreignKeys = await db.query<ForeignKey[]>(
    `SELECT conrelid::regclass::text AS "from", confrelid::regclass::text AS "to"
       FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace`,
  );
  const done = await db.query<{ name: string }[]>(`SELECT logicalrelid::regclass::text AS name FROM pg_dist_partition`);
  const already = new Set(done.map((row) => row.name));
  const steps = distributionPlan(tables, foreignKeys, already);
  for (const step of steps) await db.query(statementOf(step));
  return {
    distributed: steps.filter((step) => step.kind === 'distributed').map((step) => step.table),
    referenceTables: steps.filter((step) => step.kind === 'reference').map((step) => step.table),
    alreadyDistributed: [...already].sort(),
  };
}

/** A step's statement; table names come from the catalog, never from input. */
function statementOf(step: DistributionStep): string {
  if (step.kind === 'reference') return `SELECT create_reference_table('${step.table}')`;
  const colocation = step.colocateWith ? `, colocate_with => '${step.colocateWith}'` : '';
  return `SELECT create_distributed_table('${step.table}', '${step.column}'${colocation})`;
}
