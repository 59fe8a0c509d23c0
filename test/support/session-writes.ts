import type { Pool } from 'pg';
import { DERIVED_WRITES, SESSION_IMAGE } from '../../src/modules/sessions/derived-writes';

/**
 * Writes to sessions behind the service's back (fixtures, a manual data fix), each with the rows the
 * service derives from sessions in the same statement (DERIVED_WRITES: the count deltas, the email
 * search), as SessionsRepository writes them: no trigger keeps them (migration SessionDerivedWrites).
 * `$1` of every statement is the organization; the rows' images are read under their locks.
 */

/** `insert`, an INSERT INTO sessions … of the organization $1 (no RETURNING), with its derived rows. */
export async function insertSessionRows(pool: Pool, insert: string, params: unknown[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `WITH after AS (${insert} RETURNING ${SESSION_IMAGE}),
          before AS (SELECT ${SESSION_IMAGE} FROM after WHERE false),
          ${DERIVED_WRITES}
     SELECT count(*)::int AS n FROM after`,
    params,
  );
  return rows[0].n;
}

/** UPDATE sessions SET `set` of the organization $1's sessions `where` picks, with their derived rows. */
export async function updateSessionRows(
  pool: Pool,
  organizationId: string,
  set: string,
  where: string,
  params: unknown[] = [],
): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `WITH before AS (SELECT ${SESSION_IMAGE} FROM sessions WHERE organization_id = $1 AND ${where} FOR UPDATE),
          after AS (UPDATE sessions SET ${set} WHERE organization_id = $1 AND id IN (SELECT id FROM before) RETURNING ${SESSION_IMAGE}),
          ${DERIVED_WRITES}
     SELECT count(*)::int AS n FROM after`,
    [organizationId, ...params],
  );
  return rows[0].n;
}

/** DELETE the organization $1's sessions `where` picks, with their derived rows. */
export async function deleteSessionRows(
  pool: Pool,
  organizationId: string,
  where: string,
  params: unknown[] = [],
): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `WITH before AS (DELETE FROM sessions WHERE organization_id = $1 AND ${where} RETURNING ${SESSION_IMAGE}),
          after AS (SELECT ${SESSION_IMAGE} FROM before WHERE false),
          ${DERIVED_WRITES}
     SELECT count(*)::int AS n FROM before`,
    [organizationId, ...params],
  );
  return rows[0].n;
}
