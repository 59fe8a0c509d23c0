import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ConflictError } from '../../common/errors/domain-errors';
import type { LeaseTerms } from '../../common/queue/job-leases';
import { claimPerOrganization, type LapsedJob } from '../../common/queue/job-reaper';
import { SortKey, type Keyset, type PageWindow } from '../../common/pagination/cursor';
import type { Narrowed, Row } from '../../common/database/rows';
import { SqlConditions } from '../../common/database/sql-conditions';
import { phoneDigitsSql, type DataSubject } from '../../common/privacy/data-subject';
import type { JobListQuery } from './dto/job-list.query';
import type { JobProgressFacts } from './rules/job-status';

export type JobRow = Row<'custom_link_jobs'>;

/** A job with its item counts and how many of the links its created items made have each card state (`view`). */
export type JobItemsRow = JobRow & {
  created: number;
  failed: number;
  cancelled: number;
  thumbnails: Record<Row<'link_card_states'>['thumbnail_status'] & string, number>;
};

/** A job with the counts its response and status rules need (JobViews adds its renders' progress). */
export type JobView = JobItemsRow & {
  renders_queued: number;
  renders_settled: number;
};

/** What the job status rules read of a job. */
export function progressFactsOf(job: JobView): JobProgressFacts {
  return {
    totalItems: job.total_items,
    created: job.created,
    failed: job.failed,
    cancelled: job.cancelled,
    rendersQueued: job.renders_queued,
    rendersSettled: job.renders_settled,
  };
}

/** An item as a job's page, run and retry read it; `input` is the link request it was given. */
export type ItemRow = Narrowed<
  Pick<
    Row<'custom_link_job_items'>,
    'index' | 'status' | 'custom_link_id' | 'external_id' | 'input' | 'error_code' | 'error_message'
  >,
  { input: Record<string, unknown> }
>;

/** An item as its cancellation returns it. */
export type CancelledItem = Omit<ItemRow, 'error_code' | 'error_message'>;

export interface NewJob {
  id: string;
  type: 'create' | 'thumbnail';
  status: 'queued' | 'processing';
  campaignId: string | null;
  campaignName: string | null;
  parentJobId: string | null;
  renderUnits: number;
  /** The instant its units were reserved (LimitsService.reserveAllOrNone): refunds name it to find their windows. */
  createdAt: Date;
  /** `retryOf`: the index, in the parent job, of the item a retry job's item re-runs. */
  items: { linkId: string; externalId: string | null; input: object; status: 'queued' | 'created'; retryOf?: number }[];
}

/**
 * A job's item counts and the card states of the links its created items made (custom-links' read
 * model link_card_states), selected after `j.*` of the job, as one statement. $1 is the organization:
 * the subqueries compare with it rather than with the job's column, so that on Citus the statement
 * routes to one shard.
 */
const JOB_FIGURES = `
  i.created, i.failed, i.cancelled, c.thumbnails
    FROM custom_link_jobs j
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE status = 'created')::int AS created, count(*) FILTER (WHERE status = 'failed')::int AS failed,
             count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled
        FROM custom_link_job_items WHERE organization_id = $1 AND job_id = j.id) i
    CROSS JOIN LATERAL (
      SELECT coalesce(jsonb_object_agg(s.thumbnail_status, s.links), '{}') AS thumbnails
        FROM (SELECT l.thumbnail_status, count(*)::int AS links FROM link_card_states l
               WHERE l.organization_id = $1
                 AND l.link_id IN (SELECT custom_link_id FROM custom_link_job_items
                                    WHERE organization_id = $1 AND job_id = j.id AND status = 'created')
               GROUP BY l.thumbnail_status) s) c`;

/** Unsettled (custom_link_jobs_unfinished_idx), and nobody runs it: its lease lapsed, or it was recorded a lease ago and never leased. */
const LAPSED = `c.status IN ('queued', 'processing') AND coalesce(c.lease_until, c.created_at + $1 * interval '1 millisecond') < now()`;

/** The only place that queries jobs and their items; every statement is scoped by organization. */
@Injectable()
export class CustomLinkJobsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(tx: EntityManager, organizationId: string, job: NewJob): Promise<void> {
    await tx.query(
      `INSERT INTO custom_link_jobs (organization_id, id, type, status, total_items, campaign_id, campaign_name, parent_job_id, render_units, created_at, started_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        organizationId,
        job.id,
        job.type,
        job.status,
        job.items.length,
        job.campaignId,
        job.campaignName,
        job.parentJobId,
        job.renderUnits,
        job.createdAt,
        job.status === 'processing' ? new Date() : null,
      ],
    );
    const items = job.items.map((item, index) => ({
      index,
      status: item.status,
      link_id: item.linkId,
      external_id: item.externalId,
      input: item.input,
      retry_of_index: item.retryOf ?? null,
    }));
    // Another retry of the same parent that got there first (another instance, or a concurrent
    // request) holds an item: this one inserts fewer rows. Counted rather than caught: on Citus the
    // unique violation reaches the coordinator without its constraint's name.
    const inserted: unknown[] = await tx.query(
      `INSERT INTO custom_link_job_items (organization_id, job_id, index, status, custom_link_id, external_id, input, retry_of_job_id, retry_of_index)
       SELECT $1, $2, r.index, r.status, r.link_id, r.external_id, r.input, CASE WHEN r.retry_of_index IS NOT NULL THEN $4::uuid END, r.retry_of_index
         FROM jsonb_to_recordset($3::jsonb) AS r(index int, status text, link_id uuid, external_id text, input jsonb, retry_of_index int)
       ON CONFLICT (organization_id, retry_of_job_id, retry_of_index) WHERE retry_of_job_id IS NOT NULL DO NOTHING
       RETURNING 1`,
      [organizationId, job.id, JSON.stringify(items), job.parentJobId],
    );
    if (inserted.length < items.length) throw new ConflictError();
  }

  async view(
    organizationId: string,
    id: string,
    tx: EntityManager | DataSource = this.db,
  ): Promise<JobItemsRow | null> {
    const rows: JobItemsRow[] = await tx.query(
      `SELECT j.*, ${JOB_FIGURES} WHERE j.organization_id = $1 AND j.id = $2`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  /** Newest first (custom_link_jobs_list_idx / _campaign_idx). */
  async listPage(
    organizationId: string,
    query: JobListQuery,
    window: PageWindow,
  ): Promise<(JobItemsRow & { keyset: Keyset })[]> {
    const where = this.filters(organizationId, query);
    const after =
      window.after === null ? '' : ` AND ${JOBS_BY_CREATION.after(window.after, (value) => where.param(value))}`;
    return this.db.query(
      `SELECT j.*, ${JOBS_BY_CREATION.select('j.')}, ${JOB_FIGURES} WHERE ${where.toSql()}${after}
        ORDER BY ${JOBS_BY_CREATION.orderBy()} LIMIT ${where.param(window.limit)} OFFSET ${where.param(window.skip)}`,
      where.params,
    );
  }

  async count(organizationId: string, query: JobListQuery): Promise<number> {
    const where = this.filters(organizationId, query);
    const [row]: { total: string }[] = await this.db.query(
      `SELECT count(*) AS total FROM custom_link_jobs j WHERE ${where.toSql()}`,
      where.params,
    );
    return Number(row.total);
  }

  private filters(organizationId: string, query: JobListQuery): SqlConditions {
    return new SqlConditions()
      .add('j.organization_id = $?', organizationId)
      .addIf('j.status = ANY($?)', query.status)
      .addIf('j.campaign_id = $?', query.campaign_id);
  }

  /** A page of a job's items in index order (its primary key), after the window's index or from its offset. */
  async items(
    organizationId: string,
    jobId: string,
    window: PageWindow,
  ): Promise<{ rows: (ItemRow & { keyset: Keyset })[]; total: number }> {
    const rows: (ItemRow & { keyset: Keyset })[] = await this.db.query(
      `SELECT index, status, custom_link_id, external_id, input, error_code, error_message, ${ITEMS_BY_INDEX.select()} FROM custom_link_job_items
        WHERE organization_id = $1 AND job_id = $2 AND ($5::int IS NULL OR index > $5::int) ORDER BY ${ITEMS_BY_INDEX.orderBy()} LIMIT $3 OFFSET $4`,
      [organizationId, jobId, window.limit, window.skip, window.after?.[0] ?? null],
    );
    const [row]: { total: string }[] = await this.db.query(
      `SELECT count(*) AS total FROM custom_link_job_items WHERE organization_id = $1 AND job_id = $2`,
      [organizationId, jobId],
    );
    return { rows, total: Number(row.total) };
  }

  /**
   * The items a retry re-runs: the parent's failed and cancelled ones that no earlier retry took, in
   * order (the NOT EXISTS reads custom_link_job_items_retry_of_key). Only a fast answer: the unique
   * key is what stops two concurrent retries.
   */
  async unfinishedItems(organizationId: string, jobId: string): Promise<ItemRow[]> {
    return this.db.query(
      `SELECT i.index, i.status, i.custom_link_id, i.external_id, i.input, i.error_code, i.error_message FROM custom_link_job_items i
        WHERE i.organization_id = $1 AND i.job_id = $2 AND i.status IN ('failed', 'cancelled')
          AND NOT EXISTS (SELECT 1 FROM custom_link_job_items r WHERE r.organization_id = $1 AND r.retry_of_job_id = i.job_id AND r.retry_of_index = i.index)
        ORDER BY i.index`,
      [organizationId, jobId],
    );
  }

  /**
   * queued → processing (once), leased to the worker that runs it; null when the job is gone or already
   * settled. The start time is bound: Citus refuses now() inside COALESCE; the lease stays on the
   * database's clock, which the reaper compares it with.
   */
  async start(organizationId: string, id: string, lease: LeaseTerms): Promise<JobRow | null> {
    const [rows]: [JobRow[], number] = await this.db.query(
      `UPDATE custom_link_jobs SET status = 'processing', started_at = coalesce(started_at, $5::timestamptz), updated_at = $5,
              lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
        WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing') RETURNING *`,
      [organizationId, id, lease.owner, lease.leaseMs, new Date()],
    );
    return rows[0] ?? null;
  }

  /** Pushes the lease of a job still running forward; false once it is settled. */
  async renewLease(organizationId: string, id: string, lease: LeaseTerms): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.db.query(
      `UPDATE custom_link_jobs SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
        WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing')`,
      [organizationId, id, lease.owner, lease.leaseMs],
    );
    return count > 0;
  }

  /**
   * Unsettled jobs that nobody runs and whose items are all settled, across organizations (the
   * reaper's sweep): what is left of them is their work's, or settling.
   */
  async lapsedWithItemsSettled(lease: LeaseTerms): Promise<LapsedJob[]> {
    return this.db.query(
      `SELECT c.organization_id AS "organizationId", c.id FROM custom_link_jobs c
        WHERE ${LAPSED}
          AND NOT EXISTS (SELECT 1 FROM custom_link_job_items q WHERE q.organization_id = c.organization_id AND q.job_id = c.id AND q.status = 'queued')`,
      [lease.leaseMs],
    );
  }

  /**
   * Unsettled jobs that nobody runs (ReapableJobs.reclaimLapsed), across organizations (the
   * reaper's sweep): those with items to run, and those of `settleable` (whose items and work are
   * settled) still to settle. Read across organizations, claimed per organization (claimPerOrganization).
   */
  async reclaimLapsed(
    lease: LeaseTerms,
    limit: number,
    settleable: { organizationId: string; id: string }[],
  ): Promise<LapsedJob[]> {
    const candidates: LapsedJob[] = await this.db.query(
      `SELECT c.organization_id AS "organizationId", c.id FROM custom_link_jobs c
        WHERE ${LAPSED}
          AND (EXISTS (SELECT 1 FROM custom_link_job_items q WHERE q.organization_id = c.organization_id AND q.job_id = c.id AND q.status = 'queued')
               OR (c.organization_id, c.id) IN (SELECT * FROM unnest($3::uuid[], $4::uuid[])))
        LIMIT $2`,
      [lease.leaseMs, limit, settleable.map((job) => job.organizationId), settleable.map((job) => job.id)],
    );
    return claimPerOrganization(candidates, async (organizationId, ids) => {
      const [rows]: [LapsedJob[], number] = await this.db.query(
        `UPDATE custom_link_jobs j SET lease_owner = NULL, lease_until = now() + $1 * interval '1 millisecond'
           FROM (SELECT c.id FROM custom_link_jobs c WHERE c.organization_id = $2 AND c.id = ANY($3) AND ${LAPSED}
                 FOR UPDATE OF c SKIP LOCKED) lapsed
          WHERE j.organization_id = $2 AND j.id = lapsed.id
          RETURNING j.organization_id AS "organizationId", j.id`,
        [lease.leaseMs, organizationId, ids],
      );
      return rows;
    });
  }

  /** The job row locked for one item's transaction, so a cancel lands between items. */
  async lock(tx: EntityManager, organizationId: string, id: string): Promise<JobRow | null> {
    const rows: JobRow[] = await tx.query(
      `SELECT * FROM custom_link_jobs WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  async nextQueuedItem(tx: EntityManager, organizationId: string, jobId: string): Promise<ItemRow | null> {
    const rows: ItemRow[] = await tx.query(
      `SELECT index, status, custom_link_id, external_id, input, error_code, error_message FROM custom_link_job_items
        WHERE organization_id = $1 AND job_id = $2 AND status = 'queued' ORDER BY index LIMIT 1`,
      [organizationId, jobId],
    );
    return rows[0] ?? null;
  }

  async settleItem(
    tx: EntityManager,
    organizationId: string,
    jobId: string,
    index: number,
    status: 'created' | 'failed',
    error: { code: string; message: string } | null,
  ): Promise<void> {
    await tx.query(
      `UPDATE custom_link_job_items SET status = $4, error_code = $5, error_message = $6, updated_at = now()
        WHERE organization_id = $1 AND job_id = $2 AND index = $3`,
      [organizationId, jobId, index, status, error?.code ?? null, error?.message ?? null],
    );
  }

  /** Cancels the queued items; returns them (their units are refunded). */
  async cancelQueuedItems(tx: EntityManager, organizationId: string, jobId: string): Promise<CancelledItem[]> {
    const [rows]: [CancelledItem[], number] = await tx.query(
      `UPDATE custom_link_job_items SET status = 'cancelled', updated_at = now()
        WHERE organization_id = $1 AND job_id = $2 AND status = 'queued' RETURNING index, status, custom_link_id, external_id, input`,
      [organizationId, jobId],
    );
    return rows;
  }

  async requestCancel(tx: EntityManager, organizationId: string, id: string): Promise<void> {
    await tx.query(
      `UPDATE custom_link_jobs SET cancel_requested = true, updated_at = now() WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
  }

  /** Moves an unfinished job to its final status; false when it had finished already. */
  async settle(tx: EntityManager, organizationId: string, id: string, status: string): Promise<boolean> {
    const [, count]: [unknown[], number] = await tx.query(
      `UPDATE custom_link_jobs SET status = $3, completed_at = now(), updated_at = now()
        WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing')`,
      [organizationId, id, status],
    );
    return count > 0;
  }

  /**
   * Marks progress on an unfinished job. A settled job never changes: a caller that read the job
   * before another settled it must not move its updatedAt past the custom_link_job.finished payload.
   */
  async touch(organizationId: string, id: string): Promise<void> {
    await this.db.query(
      `UPDATE custom_link_jobs SET updated_at = now()
        WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing')`,
      [organizationId, id],
    );
  }

  /**
   * Removes the prospect fields from the inputs of the items that made these links, or that name the
   * subject's email or phone (an item whose link was never made); returns how many changed.
   */
  async redactItems(
    tx: EntityManager,
    organizationId: string,
    linkIds: string[],
    subject: DataSubject,
    fields: readonly string[],
  ): Promise<number> {
    const [, count]: [unknown, number] = await tx.query(
      `UPDATE custom_link_job_items SET input = input - $5::text[]
        WHERE organization_id = $1
          AND (custom_link_id = ANY($2::uuid[])
               OR ($3::text IS NOT NULL AND lower(btrim(input->>'email')) = $3)
               OR ($4::text IS NOT NULL AND ${phoneDigitsSql(`(input->>'phone')`)} = $4))
          AND input ?| $5::text[]`,
      [organizationId, linkIds, subject.emailKey, subject.phoneDigits, fields],
    );
    return count;
  }
}

/** Newest first (custom_link_jobs_list_idx / _campaign_idx). */
const JOBS_BY_CREATION = new SortKey([
  { sql: 'j.created_at', type: 'timestamptz', descending: true },
  { sql: 'j.id', type: 'uuid', descending: true },
]);
const ITEMS_BY_INDEX = new SortKey([{ sql: 'index', type: 'int', descending: false }]);
