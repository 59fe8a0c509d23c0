import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Transaction-scoped PostgreSQL advisory locks on named resources, shared by every API instance
 * and worker. Names are hashed to 64-bit keys and taken in key order, so two transactions locking
 * overlapping sets cannot deadlock. Callers take their locks in a fixed order of kinds
 * (session, then people, then accounts); within a kind this function orders them.
 */
export async function lockNames(tx: EntityManager, names: Iterable<string>): Promise<void> {
  const keys = [...new Set([...names].map(lockKeyOf))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) await tx.query('SELECT pg_advisory_xact_lock($1)', [key.toString()]);
}

function lockKeyOf(name: string): bigint {
  return createHash('sha256').update(name).digest().readBigInt64BE(0);
}

/**
 * Runs `work` holding a session-level advisory lock on `name`, on a connection of its own kept for
 * the lock (work spanning many transactions); null without running it when another session holds
 * the lock. A process that dies closes its connection, which releases the lock.
 */
export async function withSessionLock<T>(db: DataSource, name: string, work: () => Promise<T>): Promise<T | null> {
  const runner = db.createQueryRunner();
  await runner.connect();
  try {
    const key = lockKeyOf(name).toString();
    const [row]: { locked: boolean }[] = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [key]);
    if (!row.locked) return null;
    try {
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    await runner.release();
  }
}
