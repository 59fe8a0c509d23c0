import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * A fingerprint of everything an organization holds in PostgreSQL: per table, its row count and an
 * order-independent sum of row hashes (no sort, so it stays cheap enough to take around every request).
 * Two equal snapshots mean no row of the organization was added, removed or changed.
 *
 * Left out, each for a reason: `idempotency_records` (a rejected answer is stored by design,
 * docs/api.md §10.3), `api_keys` (`last_used_at` moves on use), and `session_counts` /
 * `session_count_deltas` (derived counters that any worker compacts on its own schedule; the
 * sessions they count are in).
 */
const NOT_TENANT_DATA = ['idempotency_records', 'api_keys', 'session_counts', 'session_count_deltas'];

export interface TenantSnapshot {
  /** Tables the snapshot covers: every table with an organization_id column, and organizations. */
  tables: string[];
  take(organizationId: string): Promise<string>;
}

export async function tenantSnapshot(db: DataSource): Promise<TenantSnapshot> {
  const rows: { table_name: string }[] = await db.query(
    `SELECT DISTINCT table_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name = 'organization_id' AND table_name <> ALL($1)
      ORDER BY table_name`,
    [NOT_TENANT_DATA],
  );
  const tables = rows.map((r) => r.table_name);
  const pool = (db.driver as unknown as { master: Pool }).master;
  const part = (table: string, where: string) =>
    `SELECT '${table}' AS t, count(*) AS n, coalesce(sum(hashtextextended(x::text, 0)), 0) AS h FROM "${table}" x WHERE ${where}`;
  const sql = [
    part('organizations', 'x.id = $1'),
    ...tables.map((table) => part(table, 'x.organization_id = $1')),
  ].join(' UNION ALL ');
  return {
    tables: ['organizations', ...tables],
    async take(organizationId) {
      // A named statement: PostgreSQL plans the twenty-odd branches once per connection, not per call.
      const result = await pool.query<{ t: string; n: string; h: string }>({
        name: 'tenant-snapshot',
        text: sql,
        values: [organizationId],
      });
      return result.rows.map((r) => `${r.t}:${r.n}:${r.h}`).join(' ');
    },
  };
}
