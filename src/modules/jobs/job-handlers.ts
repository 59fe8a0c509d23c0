import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CancelledItem, ItemRow, JobRow, JobView } from './custom-link-jobs.repository';
import type { JobResponse } from './dto/job.response';

/** What one item's run came to, inside the job's transaction; `after` runs once it committed. */
export interface ItemOutcome {
  status: 'created' | 'failed';
  error: { code: string; message: string } | null;
  after: () => Promise<void>;
}

/**
 * A kind of work that jobs run, registered by the module that owns the work (the jobs module
 * imports none of them). Every method must be safe to run twice: a worker can die at any point.
 */
export interface JobHandler {
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

/** The registered handlers by job type; one registry per application. */
@Injectable()
export class JobHandlers {
  private readonly handlers = new Map<string, JobHandler>();

  register(types: readonly string[], handler: JobHandler): void {
    for (const type of types) this.handlers.set(type, handler);
  }

  of(type: string): JobHandler {
    const handler = this.handlers.get(type);
    if (!handler) throw new Error(`No handler registered for jobs of type ${type}`);
    return handler;
  }
}
