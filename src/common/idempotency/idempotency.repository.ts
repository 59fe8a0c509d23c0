import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface IdempotencyScope {
  organizationId: string;
  method: string;
  route: string;
  key: string;
}

export interface StoredIdempotencyRecord {
  fingerprint: string;
  state: 'in_flight' | 'completed';
  responseStatus: number | null;
  responseBody: unknown;
  responseHeaders: Record<string, string>;
}

const RETENTION = '24 hours';
/** A claim older than this was left by a process that died mid-request; it may be taken over. */
const ABANDONED_AFTER = '60 seconds';

/** Idempotency records in PostgreSQL, keyed by (organization, method, route, key). */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Atomically claims the key for a new request: inserts an in-flight record, or takes over one
   * that expired or was abandoned. Returns true when this request now owns the key.
   */
  async claim(scope: IdempotencyScope, fingerprint: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO idempotency_records
         (organization_id, method, route, idempotency_key, fingerprint, state, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, 'in_flight', now(), now() + interval '${RETENTION}')
       ON CONFLICT (organization_id, method, route, idempotency_key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, state = 'in_flight', response_status = NULL,
             response_body = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE idempotency_records.expires_at <= now()
            OR (idempotency_records.state = 'in_flight'
                AND idempotency_records.created_at < now() - interval '${ABANDONED_AFTER}')
       RETURNING 1`,
      [scope.organizationId, scope.method, scope.route, scope.key, fingerprint],
    );
    return rows.length === 1;
  }

  async find(scope: IdempotencyScope): Promise<StoredIdempotencyRecord | null> {
    const rows: {
      fingerprint: string;
      state: 'in_flight' | 'completed';
      response_status: number | null;
      response_body: string | null;
      response_headers: Record<string, string> | null;
    }[] = await this.db.query(
        `SELECT fingerprint, state, response_status, response_body, response_headers FROM idempotency_records
          WHERE organization_id = $1 AND method = $2 AND route = $3 AND idempotency_key = $4 AND expires_at > now()`,
        [scope.organizationId, scope.method, scope.route, scope.key],
      );
    const [row] = rows;
    if (!row) return null;
    return {
      fingerprint: row.fingerprint,
      state: row.state,
      responseStatus: row.response_status,
      responseBody: row.response_body === null ? null : (JSON.parse(row.response_body) as unknown),
      responseHeaders: row.response_headers ?? {},
    };
  }

  async complete(scope: IdempotencyScope, status: number, body: unknown, headers: Record<string, string>): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_records
          SET state = 'completed', response_status = $5, response_body = $6, response_headers = $7::jsonb
        WHERE organization_id = $1 AND method = $2 AND route = $3 AND idempotency_key = $4`,
      [scope.organizationId, scope.method, scope.route, scope.key, status, JSON.stringify(body ?? null), JSON.stringify(headers)],
    );
  }

  async release(scope: IdempotencyScope): Promise<void> {
    await this.db.query(
      `DELETE FROM idempotency_records WHERE organization_id = $1 AND method = $2 AND route = $3 AND idempotency_key = $4`,
      [scope.organizationId, scope.method, scope.route, scope.key],
    );
  }

  /** Deletes records past their retention; run periodically by the maintenance worker. */
  async purgeExpired(): Promise<number> {
    const result: [unknown[], number] = await this.db.query(`DELETE FROM idempotency_records WHERE expires_at <= now()`);
    return result[1];
  }
}
