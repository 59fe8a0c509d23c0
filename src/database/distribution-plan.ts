/** A table of the migrated schema as the distribution step sees it. */
export interface SchemaTable {
  name: string;
  /**
   * A tenant table, distributed by `organization_id`: it has the column and its primary key (if
   * any) includes it. A global lookup (api_key_lookups, custom_link_slugs, session_ids) names its
   * row's organization but is keyed by a global value.
   */
  tenant: boolean;
  /**
   * A global table's one unique key, when it has exactly one and of one column (session_ids' id):
   * the table is distributed by it. A global table with more unique keys (a key's hash and id, a
   * slug and its link) is a reference table, the only kind on which Citus enforces them all.
   */
  soleKey: string | null;
}

/** A foreign key: `from` references `to`. */
export interface ForeignKey {
  from: string;
  to: string;
}

/** One statement of the plan, in order. */
export type DistributionStep =
  | { table: string; kind: 'distributed'; column: string; colocateWith: typeof ROOT_TABLE | 'none' | null }
  | { table: string; kind: 'reference' };

/** The root of the one co-location group: distributed by its `id`, which every tenant key starts with. */
export const ROOT_TABLE = 'organizations';
/** Tables the distribution leaves local to the coordinator. */
const LOCAL_TABLES = new Set(['typeorm_migrations']);

/**
 * The order in which to distribute the schema on Citus (docs/scaling.md): `organizations` by `id`,
 * then every table without `organization_id` (the global lookups): one with a sole key distributed
 * by it in a group of its own (its writes lock one row on one shard: as a reference table, every
 * first ingestion of a session locked the table's one shard cluster-wide until commit), the others
 * as reference tables; then every tenant table by `organization_id` in the co-location group of
 * `organizations`; within each kind a
 * table comes after the tables it references (Citus distributes a table only once those its foreign
 * keys point at are). Tables already distributed are skipped, so the step can run again.
 */
export function distributionPlan(
  tables: readonly SchemaTable[],
  foreignKeys: readonly ForeignKey[],
  alreadyDistributed: ReadonlySet<string>,
): DistributionStep[] {
  const wanted = tables.filter((table) => !LOCAL_TABLES.has(table.name));
  const root = wanted.find((table) => table.name === ROOT_TABLE);
  if (!root) throw new Error(`the schema has no ${ROOT_TABLE} table`);
  const globals = dependencyOrder(
    wanted.filter((table) => !table.tenant && table.name !== ROOT_TABLE),
    foreignKeys,
  );
  const tenants = dependencyOrder(
    wanted.filter((table) => table.tenant),
    foreignKeys,
  );
  const soleKeys = new Map(wanted.map((table) => [table.name, table.soleKey]));
  const steps: DistributionStep[] = [
    { table: ROOT_TABLE, kind: 'distributed', column: 'id', colocateWith: null },
    ...globals.map((name): DistributionStep => {
      const key = soleKeys.get(name);
      return key
        ? { table: name, kind: 'distributed', column: key, colocateWith: 'none' }
        : { table: name, kind: 'reference' };
    }),
    ...tenants.map((name): DistributionStep => ({
      table: name,
      kind: 'distributed',
      column: 'organization_id',
      colocateWith: ROOT_TABLE,
    })),
  ];
  return steps.filter((step) => !alreadyDistributed.has(step.table));
}

/** The tables' names, each after those of the set it references; a cycle is an error. */
function dependencyOrder(tables: readonly SchemaTable[], foreignKeys: readonly ForeignKey[]): string[] {
  const names = new Set(tables.map((table) => table.name));
  const ordered: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`foreign keys form a cycle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const key of foreignKeys)
      if (key.from === name && key.to !== name && names.has(key.to)) visit(key.to, [...path, name]);
    state.set(name, 'done');
    ordered.push(name);
  };
  for (const name of [...names].sort()) visit(name, []);
  return ordered;
}
