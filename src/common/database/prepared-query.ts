import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { readRouters } from './read-context';

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

const names = new Map<string, string>();

/**
 * Runs a statement as a named prepared statement on the pool's connections (outside any
 * transaction), so PostgreSQL plans it once per connection instead of on every request (planning
 * the sessions page cost more than running it). Only for hot statements whose best plan does not
 * depend on the parameter values: after a few runs PostgreSQL may keep one generic plan for every value.
 */
export async function preparedQuery<T>(db: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  let name = names.get(sql);
  if (name === undefined) {
    name = `q_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    names.set(sql, name);
  }
  const run = async (source: DataSource) =>
    (await (source.driver as unknown as { master: PgPool }).master.query({ name, text: sql, values: params }))
      .rows as T[];
  // With replicas, a read may run on one (src/database/read-routing.ts); prepared there per connection as here.
  const router = readRouters.get(db);
  return router ? router.route(sql, run) : run(db);
}
