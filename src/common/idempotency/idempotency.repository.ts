import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { Narrowed, Row } from '../database/rows';

/** committed: the mutation stored its answer in its transaction; its request has not finished yet (idempotency_records_state_check). */
export type IdempotencyState = 'in_flight' | 'committed' | 'completed';

export interface IdempotencyScope {
  organizationId: string;
  method: string;
  route: string;
  key: string;
}

export interface StoredIdempotencyRecord {
  fingerprint: string;
  state: IdempotencyState;
  /** Its owner stopped renewing it: it died (or lost the database for a whole lease). */
  leaseLapsed: boolean;
  responseStatus: number | null;
  responseBody: unknown;
  responseHeaders: Record<string, string>;
}

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

const RETENTION = '24 hours';
const KEY = 'organization_id = $1 AND method = $2 AND route = $3 AND idempotency_key = $4';
const keyParams = (scope: IdempotencyScope) => [scope.organizationId, scope.method, scope.route, scope.key];
const responseParams = (response: StoredResponse) => [
  response.status,
  JSON.stringify(response.body ?? null),
  JSON.stringify(response.headers),
];

/**
 * Idempotency records in PostgreSQL, keyed by (organization, method, route, key). A claim is a lease
 * owned by a token: every write after the claim names the token, so a request that lost its lease
 * can no longer commit, complete, release or renew the record. Lease times are the database's
 * clock, so instances with skewed clocks agree.
 *
 * States: `in_flight` (claimed, nothing stored), `committed` (the mutation stored its answer in its
 * own transaction; the request is still running or died after that commit), `completed` (the
 * request finished; its answer is replayed).
 */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Atomically claims the key for `token`: inserts an in-flight record, or takes over one past its
   * retention, or an in-flight one for the same request whose lease lapsed (its owner died). True
   * when `token` now owns the key. The update reads the clock from `EXCLUDED.created_at` (the
   * statement's `now()`, evaluated once for the proposed row): Citus refuses a non-immutable
   * function in `ON CONFLICT … DO UPDATE` (docs/scaling.md, "Citus compatibility (statements)").
   */
  async claim(scope: IdempotencyScope, fingerprint: string, token: string, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO idempotency_records
         (organization_id, method, route, idempotency_key, fingerprint, state, lease_token, lease_expires_at, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, 'in_flight', $6, now() + $7 * interval '1 millisecond', now(), now() + interval '${RETENTION}')
       ON CONFLICT (organization_id, method, route, idempotency_key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, state = 'in_flight', response_status = NULL, response_body = NULL,
             response_headers = NULL, lease_token = EXCLUDED.lease_token, lease_expires_at = EXCLUDED.lease_expires_at,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
         WHERE idempotency_records.expires_at <= EXCLUDED.created_at
            OR (idempotency_records.state = 'in_flight' AND idempotency_records.lease_expires_at <= EXCLUDED.created_at
                AND idempotency_records.fingerprint = EXCLUDED.fingerprint)
       RETURNING 1`,
      [...keyParams(scope), fingerprint, token, leaseMs],
    );
    return rows.length === 1;
  }

  async find(scope: IdempotencyScope): Promise<StoredIdempotencyRecord | null> {
    const rows: (Narrowed<
      Pick<
        Row<'idempotency_records'>,
        'fingerprint' | 'state' | 'response_status' | 'response_body' | 'response_headers'
      >,
      { state: IdempotencyState; response_headers: Record<string, string> | null }
    > & { lease_lapsed: boolean })[] = await this.db.query(
      `SELECT fingerprint, state, lease_expires_at <= now() AS lease_lapsed, response_status, response_body, response_headers
           FROM idempotency_records WHERE ${KEY} AND expires_at > now()`,
      keyParams(scope),
    );
    const [row] = rows;
    if (!row) return null;
    return {
      fingerprint: row.fingerprint,
      state: row.state,
      leaseLapsed: row.lease_lapsed,
      responseStatus: row.response_status,
      responseBody: row.response_body === null ? null : (JSON.parse(row.response_body) as unknown),
      responseHeaders: row.response_headers ?? {},
    };
  }

  /** The owner's heartbeat: pushes its lease forward; false when the claim is no longer its own or its request finished. */
  async renew(scope: IdempotencyScope, token: string, leaseMs: number): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.db.query(
      `UPDATE idempotency_records SET lease_expires_at = now() + $6 * interval '1 millisecond'
        WHERE ${KEY} AND lease_token = $5 AND state IN ('in_flight', 'committed')`,
      [...keyParams(scope), token, leaseMs],
    );
    return count === 1;
  }

  /**
   * In the mutation's transaction: stores its answer (`committed`) if `token` still holds the
   * in-flight claim; false otherwise, and the caller must roll back.
   */
  async commit(tx: EntityManager, scope: IdempotencyScope, token: string, response: StoredResponse): Promise<boolean> {
    const [, count]: [unknown[], number] = await tx.query(
      `UPDATE idempotency_records SET state = 'committed', response_status = $6, response_body = $7, response_headers = $8::jsonb
        WHERE ${KEY} AND lease_token = $5 AND state = 'in_flight'`,
      [...keyParams(scope), token, ...responseParams(response)],
    );
    return count === 1;
  }

  /**
   * The request holding `token` finished with `response`; stored unless `keepCommitted` and its
   * mutation committed an answer, which then stands (an error raised after that commit).
   */
  async complete(
    scope: IdempotencyScope,
    token: string,
    response: StoredResponse,
    keepCommitted = false,
  ): Promise<void> {
    const stored = (column: string, param: string) =>
      keepCommitted ? `CASE WHEN state = 'committed' THEN ${column} ELSE ${param} END` : param;
    await this.db.query(
      `UPDATE idempotency_records
          SET state = 'completed', response_status = ${stored('response_status', '$6')}, response_body = ${stored('response_body', '$7')},
              response_headers = ${stored('response_headers', '$8::jsonb')}
        WHERE ${KEY} AND lease_token = $5`,
      [...keyParams(scope), token, ...responseParams(response)],
    );
  }

  /** Frees the key for a new attempt, unless the request's mutation committed its answer: that one is kept for replays. */
  async release(scope: IdempotencyScope, token: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_records WHERE ${KEY} AND lease_token = $5 AND state = 'in_flight'`, [
      ...keyParams(scope),
      token,
    ]);
    await this.db.query(
      `UPDATE idempotency_records SET state = 'completed' WHERE ${KEY} AND lease_token = $5 AND state = 'committed'`,
      [...keyParams(scope), token],
    );
  }

  /**
   * Deletes the organization's records whose stored answer contains any of `patterns` (LIKE patterns
   * on the lower-cased body and headers): an erasure's (docs/api.md §18.2). Returns how many.
   */
  async deleteMatching(organizationId: string, patterns: string[]): Promise<number> {
    if (patterns.length === 0) return 0;
    const [, count]: [unknown, number] = await this.db.query(
      `DELETE FROM idempotency_records WHERE organization_id = $1
          AND (lower(response_body) LIKE ANY($2::text[]) OR lower(response_headers::text) LIKE ANY($2::text[]))`,
      [organizationId, patterns],
    );
    return count;
  }

  /** Deletes records past their retention; run periodically by the maintenance worker. */
  async purgeExpired(): Promise<number> {
    const result: [unknown[], number] = await this.db.query(
      `DELETE FROM idempotency_records WHERE expires_at <= now()`,
    );
    return result[1];
  }
}
