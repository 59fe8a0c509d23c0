import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { Narrowed, Row } from '../../common/database/rows';
import { SortKey, type Keyset, type PageWindow } from '../../common/pagination/cursor';
import type { LeaseTerms } from '../../common/queue/job-leases';
import { reclaimLapsedRows, type LapsedJob } from '../../common/queue/job-reaper';
import { ERASED_KINDS, type ErasureCountsOf, type ErasureStatus } from './rules/erasure-counts';

/** An erasure row; `counts` as the runner writes them. */
export type ErasureRow = Narrowed<Row<'privacy_erasures'>, { status: ErasureStatus; counts: ErasureCountsOf | null }>;

/** Who a new erasure is about: exactly one identifier. */
export interface ErasureRequestRow {
  id: string;
  suppress: boolean;
  email: string | null;
  phone: string | null;
  personId: string | null;
}

const NEWEST_FIRST = new SortKey([
  { sql: 'created_at', type: 'timestamptz', descending: true },
  { sql: 'id', type: 'uuid', descending: true },
]);

/** What every finished erasure keeps of its subject: nothing. */
const FORGET_SUBJECT = `subject_email = NULL, subject_phone = NULL, subject_person_id = NULL, person_id = NULL, lease_owner = NULL, lease_until = NULL`;

/** The only place that queries erasures; every statement is scoped by organization (the reaper's sweep spans them). */
@Injectable()
export class PrivacyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(tx: EntityManager, organizationId: string, erasure: ErasureRequestRow): Promise<ErasureRow> {
    const [row]: ErasureRow[] = await tx.query(
      `INSERT INTO privacy_erasures (organization_id, id, status, suppress, subject_email, subject_phone, subject_person_id, created_at)
       VALUES ($1, $2, 'queued', $3, $4, $5, $6, now()) RETURNING *`,
      [organizationId, erasure.id, erasure.suppress, erasure.email, erasure.phone, erasure.personId],
    );
    return row;
  }

  async find(organizationId: string, id: string): Promise<ErasureRow | null> {
    const rows: ErasureRow[] = await this.db.query(
      `SELECT * FROM privacy_erasures WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  /** Newest first (privacy_erasures_list_idx). */
  async listPage(organizationId: string, window: PageWindow): Promise<(ErasureRow & { keyset: Keyset })[]> {
    const params: unknown[] = [organizationId, window.limit];
    const after =
      window.after === null ? '' : `AND ${NEWEST_FIRST.after(window.after, (value) => `$${params.push(value)}`)}`;
    return this.db.query(
      `SELECT *, ${NEWEST_FIRST.select()} FROM privacy_erasures WHERE organization_id = $1 ${after}
        ORDER BY ${NEWEST_FIRST.orderBy()} LIMIT $2`,
      params,
    );
  }

  /**
   * Takes an unfinished erasure for a run (one more attempt); null once it is finished. The start
   * time is bound: Citus refuses now() inside COALESCE; the lease stays on the database's clock.
   */
  async start(organizationId: string, id: string, lease: LeaseTerms): Promise<ErasureRow | null> {
    const [rows]: [ErasureRow[], number] = await this.db.query(
      `UPDATE privacy_erasures
          SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, $5::timestamptz),
              lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
        WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'running') RETURNING *`,
      [organizationId, id, lease.owner, lease.leaseMs, new Date()],
    );
    return rows[0] ?? null;
  }

  /** Pushes the run's lease forward; false once the erasure finished. */
  async renewLease(organizationId: string, id: string, lease: LeaseTerms): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.db.query(
      `UPDATE privacy_erasures SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
        WHERE organization_id = $1 AND id = $2 AND status = 'running'`,
      [organizationId, id, lease.owner, lease.leaseMs],
    );
    return count > 0;
  }

  /**
   * Records who the erasure is about, once: the email a person id stood for (the person row goes
   * during the run, and a resumed run must still find the rest), and the person, if any.
   */
  async resolve(organizationId: string, id: string, email: string | null, personId: string | null): Promise<void> {
    await this.db.query(
      `UPDATE privacy_erasures SET subject_email = $3, person_id = $4, subject_resolved = true
        WHERE organization_id = $1 AND id = $2 AND status = 'running' AND NOT subject_resolved`,
      [organizationId, id, email, personId],
    );
  }

  /** Adds a step's counts to the erasure's. */
  async addCounts(organizationId: string, id: string, counts: Partial<ErasureCountsOf>): Promise<void> {
    await this.db.query(
      `UPDATE privacy_erasures SET counts = (
         SELECT jsonb_object_agg(kind, coalesce((counts ->> kind)::int, 0) + coalesce(($3::jsonb ->> kind)::int, 0))
           FROM unnest($4::text[]) kind)
        WHERE organization_id = $1 AND id = $2 AND status = 'running'`,
      [organizationId, id, JSON.stringify(counts), ERASED_KINDS],
    );
  }

  /** Completes a running erasure in `tx`, forgetting its subject; null when it was not running. */
  async complete(tx: EntityManager, organizationId: string, id: string): Promise<ErasureRow | null> {
    const [rows]: [ErasureRow[], number] = await tx.query(
      `UPDATE privacy_erasures SET status = 'completed', completed_at = now(), ${FORGET_SUBJECT}
        WHERE organization_id = $1 AND id = $2 AND status = 'running' RETURNING *`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  /** Fails an unfinished erasure with a reason safe to show, forgetting its subject. */
  async fail(organizationId: string, id: string, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE privacy_erasures SET status = 'failed', completed_at = now(), failure_reason = $3, ${FORGET_SUBJECT}
        WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'running')`,
      [organizationId, id, reason],
    );
  }

  /** Unfinished erasures that nobody runs (ReapableJobs.reclaimLapsed), across organizations. */
  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return reclaimLapsedRows(this.db, 'privacy_erasures', ['queued', 'running'], lease, limit);
  }
}
