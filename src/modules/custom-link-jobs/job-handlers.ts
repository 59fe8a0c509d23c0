import type { EntityManager } from 'typeorm';
import { defineKeyedPort } from '../../common/wiring/port';
import type { CancelledItem, ItemRow, JobRow, JobView, NewJob } from './custom-link-jobs.repository';
import type { JobResponse } from './dto/job.response';

/** The job types; each has exactly one handler (checked at start). */
export const JOB_TYPES = ['create', 'thumbnail'] as const satisfies readonly NewJob['type'][];

/** What one item's run came to, inside the job's transaction; `after` runs once it committed. */
export interface ItemOutcome {
  status: 'created' | 'failed';
  error: { code: string; message: string } | null;
  after: () => Promise<void>;
}

/**
 * A kind of work that jobs run, implemented by the module that owns the work (the jobs module
 * imports none of them). Every method must be safe to run twice: a worker can die at any point.
 */
export interface JobHandler {
  /** The job types it runs. */
  readonly types: readonly NewJob['type'][];
  /** Before the first item, and again when a job resumes after a crash. */
  resume(organizationId: string, jobId: string): Promise<void>;
  /** One queued item, inside the transaction that holds the job's row. */
  runItem(tx: EntityManager, organizationId: string, job: JobRow, item: ItemRow): Promise<ItemOutcome>;
  /** Queued items of `job` were cancelled in `tx`: release what they held; the returned work runs after commit. */
  cancelled(
    tx: EntityManager,
    organizationId: string,
    job: JobRow,
    items: CancelledItem[],
  ): Promise<() => Promise<void>>;
  /** A new job over the parent's failed and cancelled items; returns its id. */
  retry(organizationId: string, parent: JobView, items: ItemRow[]): Promise<JobResponse>;
}

export const JOB_HANDLERS = defineKeyedPort<JobHandler, string>('job handlers', {
  keysOf: (handler) => handler.types,
  required: JOB_TYPES,
});
