import type { Pool, PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { SessionImage, SessionImageChange } from '../../src/modules/sessions/rules/derived-rows';
import { SESSION_IMAGE, SessionsRepository } from '../../src/modules/sessions/sessions.repository';

/**
 * Writes to sessions behind the service's back (fixtures, a manual data fix), each with the rows the
 * service derives from sessions (the count deltas, the email search) in the same transaction, as
 * SessionsRepository writes them (writeDerived): no trigger keeps them (migration SessionDerivedWrites).
 * `$1` of every statement is the organization; an update reads the rows' old images under their locks.
 */

/** The repository's writeDerived, on a pg client in a transaction (it sends only statements, reads no result). */
async function writeDerived(client: PoolClient, organizationId: string, changes: SessionImageChange[]): Promise<void> {
  const tx = { query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows };
  await new SessionsRepository({} as DataSource).writeDerived(tx as EntityManager, organizationId, changes);
}

async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** `insert`, an INSERT INTO sessions … of the organization $1 (no RETURNING), with its derived rows. */
export async function insertSessionRows(pool: Pool, insert: string, params: unknown[]): Promise<number> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<SessionImage>(`${insert} RETURNING ${SESSION_IMAGE}`, params);
    await writeDerived(
      client,
      params[0] as string,
      rows.map((after) => ({ before: null, after })),
    );
    return rows.length;
  });
}

/** UPDATE sessions SET `set` of the organization $1's sessions `where` picks, with their derived rows; both read `params` from $2. */
export async function updateSessionRows(
  pool: Pool,
  organizationId: string,
  set: string,
  where: string,
  params: unknown[] = [],
): Promise<number> {
  return inTransaction(pool, async (client) => {
    const before = (
      await client.query<SessionImage>(
        `SELECT ${SESSION_IMAGE} FROM sessions WHERE organization_id = $1 AND ${where} ORDER BY id FOR UPDATE`,
        [organizationId, ...params],
      )
    ).rows;
    const after = (
      await client.query<SessionImage>(
        `UPDATE sessions SET ${set} WHERE organization_id = $1 AND ${where} AND id = ANY($${params.length + 2}::uuid[]) RETURNING ${SESSION_IMAGE}`,
        [organizationId, ...params, before.map((row) => row.id)],
      )
    ).rows;
    const written = new Map(after.map((row) => [row.id, row]));
    await writeDerived(
      client,
      organizationId,
      before.map((row) => ({ before: row, after: written.get(row.id) ?? null })),
    );
    return after.length;
  });
}

/** DELETE the organization $1's sessions `where` picks, with their derived rows. */
export async function deleteSessionRows(
  pool: Pool,
  organizationId: string,
  where: string,
  params: unknown[] = [],
): Promise<number> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<SessionImage>(
      `DELETE FROM sessions WHERE organization_id = $1 AND ${where} RETURNING ${SESSION_IMAGE}`,
      [organizationId, ...params],
    );
    await writeDerived(
      client,
      organizationId,
      rows.map((before) => ({ before, after: null })),
    );
    return rows.length;
  });
}
