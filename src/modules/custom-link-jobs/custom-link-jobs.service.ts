import { InjectQueue } from '@nestjs/bull';
import type { DataSubject } from '../../common/privacy/data-subject';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { DataSource, type EntityManager } from 'typeorm';
import { ConflictError, NotFoundError } from '../../common/errors/domain-errors';
import { IdempotencyRecorder } from '../../common/idempotency/idempotency-recorder';
import { LimitsService } from '../../common/limits/limits.service';
import { enqueue } from '../../common/queue/job-options';
import { JobLeases, type LeaseTerms } from '../../common/queue/job-leases';
import { Cursors, keysetOf } from '../../common/pagination/cursor';
import type { PaginationQuery } from '../../common/pagination/pagination.query';
import type { LapsedJob } from '../../common/queue/job-reaper';
import { InjectPort, type Keyed } from '../../common/wiring/port';
import { AppConfigService } from '../../config/app-config';
import { CustomLinkJobsRepository, type JobRow, type JobView, type NewJob } from './custom-link-jobs.repository';
import {
  toJobItemResponse,
  toJobResponse,
  type JobItemListResponse,
  type JobListResponse,
  type JobResponse,
} from './dto/job.response';
import type { JobListQuery } from './dto/job-list.query';
import { JOB_HANDLERS, type JobHandler } from './job-handlers';
import { JobSettlementService } from './job-settlement.service';
import { JobViews } from './job-views';
import { JOB_WORK_FACTS, type JobWorkFacts } from './job-work-facts';
import { JOBS_QUEUE, RUN_JOB, type RunJobPayload } from './jobs/custom-link-jobs.queue';
import { isTerminal } from './rules/job-status';

/** The cursor names of the job list and of a job's items (signed into their cursors, so never changed). */
const JOB_LIST = 'custom-link-jobs';
const JOB_ITEM_LIST = 'custom-link-job-items';

const nothing = async () => undefined;

/**
 * Jobs (docs/api.md §12.5, §12.7, §12.8): recorded with their items in the requester's
 * transaction, run by a worker one item per transaction (the job's row locked, so a cancel lands
 * between items), cancelled, retried as a child job, and settled once nothing they own is pending.
 * What an item does is the business of the handler of the job's type (JobHandler).
 */
@Injectable()
export class CustomLinkJobsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue<RunJobPayload>,
    private readonly jobs: CustomLinkJobsRepository,
    private readonly views: JobViews,
    @InjectPort(JOB_HANDLERS) private readonly handlers: Keyed<string, JobHandler>,
    @InjectPort(JOB_WORK_FACTS) private readonly work: JobWorkFacts,
    private readonly limits: LimitsService,
    private readonly settlement: JobSettlementService,
    private readonly config: AppConfigService,
    private readonly idempotency: IdempotencyRecorder,
    private readonly leases: JobLeases,
    private readonly cursors: Cursors,
  ) {}

  /** Records a job and its items inside the caller's transaction; `enqueue` it after commit. */
  record(tx: EntityManager, organizationId: string, job: NewJob): Promise<void> {
    return this.jobs.insert(tx, organizationId, job);
  }

  /** Hands a recorded job to the workers; the job id as Bull's id makes a second add a no-op. */
  async enqueue(organizationId: string, jobId: string): Promise<void> {
    await enqueue(this.queue, RUN_JOB, { organizationId, jobId }, jobId, this.config.values.timeouts.redisCommandMs);
  }

  /** `tx`: as the caller's transaction sees the job (the answer it stores with its Idempotency-Key). */
  async get(organizationId: string, jobId: string, tx?: EntityManager): Promise<JobResponse> {
    return toJobResponse(await this.viewOrThrow(organizationId, jobId, tx));
  }

  async find(organizationId: string, jobId: string, tx?: EntityManager): Promise<JobResponse | null> {
    const job = await this.views.find(organizationId, jobId, tx);
    return job ? toJobResponse(job) : null;
  }

  async list(organizationId: string, query: JobListQuery): Promise<JobListResponse> {
    const window = this.cursors.window(JOB_LIST, organizationId, query);
    const [rows, total] = await Promise.all([
      this.jobs.listPage(organizationId, query, window).then((page) => this.views.of(organizationId, page)),
      this.jobs.count(organizationId, query),
    ]);
    const page = this.cursors.page(JOB_LIST, organizationId, query, window, rows, keysetOf);
    return {
      jobs: page.rows.map(toJobResponse),
      total,
      limit: query.limit,
      offset: page.offset,
      nextCursor: page.nextCursor,
    };
  }

  async items(organizationId: string, jobId: string, query: PaginationQuery): Promise<JobItemListResponse> {
    await this.viewOrThrow(organizationId, jobId);
    // Named by the job: a cursor of another job's items is refused.
    const list = `${JOB_ITEM_LIST}:${jobId}`;
    const window = this.cursors.window(list, organizationId, query);
    const { rows, total } = await this.jobs.items(organizationId, jobId, window);
    const page = this.cursors.page(list, organizationId, query, window, rows, keysetOf);
    return {
      items: page.rows.map(toJobItemResponse),
      total,
      limit: query.limit,
      offset: page.offset,
      nextCursor: page.nextCursor,
    };
  }

  /** Cancel: a queued job is cancelled at once; a processing one after the item in hand. */
  async cancel(organizationId: string, jobId: string): Promise<JobResponse> {
    await this.limits.chargeMutation(organizationId, this.config.values.limits.linkMutationsPerMinute);
    const after = await this.db.transaction(async (tx) => {
      const job = await this.jobs.lock(tx, organizationId, jobId);
      if (!job) throw NotFoundError.inOrganization('Custom Link job');
      if (isTerminal(job.status)) throw new ConflictError();
      await this.jobs.requestCancel(tx, organizationId, jobId);
      const after = job.status === 'queued' ? await this.cancelPending(tx, organizationId, job) : nothing;
      // Cancelling is committed; the job may settle only after, so a replay may show it unsettled.
      await this.idempotency.complete(tx, await this.get(organizationId, jobId, tx));
      return after;
    });
    await after();
    await this.settlement.settleIfDone(organizationId, jobId);
    return this.get(organizationId, jobId);
  }

  /**
   * A child job over the parent's failed and cancelled items that no earlier retry took (docs/api.md
   * §12.5): a parent is retried once; its child, once terminal, can be retried in turn.
   */
  async retry(organizationId: string, jobId: string): Promise<JobResponse> {
    await this.limits.chargeMutation(organizationId, this.config.values.limits.linkMutationsPerMinute);
    const parent = await this.viewOrThrow(organizationId, jobId);
    const redo = isTerminal(parent.status) ? await this.jobs.unfinishedItems(organizationId, jobId) : [];
    if (redo.length === 0) throw new ConflictError();
    return this.handlers.of(parent.type).retry(organizationId, parent, redo);
  }

  /**
   * The worker's run of a job, under a lease renewed while it runs; safe to run again after a crash
   * or a retry, and alongside another run of the same job (each item holds the job's row).
   */
  async run(organizationId: string, jobId: string): Promise<void> {
    const job = await this.jobs.start(organizationId, jobId, this.leases.terms());
    if (!job) return;
    await this.leases.hold(
      (lease) => this.jobs.renewLease(organizationId, jobId, lease),
      async () => {
        await this.handlers.of(job.type).resume(organizationId, jobId);
        for (;;) {
          const step = await this.db.transaction((tx) => this.runNextItem(tx, organizationId, jobId));
          await step.after();
          if (step.done) break;
        }
        await this.settlement.settleIfDone(organizationId, jobId);
      },
    );
  }

  /**
   * Unsettled jobs that nobody runs and that have something for a runner to do, for the JobReaper
   * (ReapableJobs.reclaimLapsed): items to run, or nothing pending and the job still to settle. A
   * job whose items are done and whose work (its renders) is pending waits for it: renders have
   * leases of their own, and the last to settle settles the job.
   */
  async reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    const idle = await this.jobs.lapsedWithItemsSettled(lease);
    const working = await this.work.pending(idle);
    return this.jobs.reclaimLapsed(
      lease,
      limit,
      idle.filter((job) => !working.has(job.id)),
    );
  }

  settleIfDone(organizationId: string, jobId: string): Promise<void> {
    return this.settlement.settleIfDone(organizationId, jobId);
  }

  private async runNextItem(
    tx: EntityManager,
    organizationId: string,
    jobId: string,
  ): Promise<{ done: boolean; after: () => Promise<void> }> {
    const job = await this.jobs.lock(tx, organizationId, jobId);
    if (!job || isTerminal(job.status)) return { done: true, after: nothing };
    if (job.cancel_requested) return { done: true, after: await this.cancelPending(tx, organizationId, job) };
    const item = await this.jobs.nextQueuedItem(tx, organizationId, jobId);
    if (!item) return { done: true, after: nothing };
    const outcome = await this.handlers.of(job.type).runItem(tx, organizationId, job, item);
    await this.jobs.settleItem(tx, organizationId, jobId, item.index, outcome.status, outcome.error);
    return { done: false, after: outcome.after };
  }

  /** Cancels what has not started: the queued items, and whatever the handler holds for them. */
  private async cancelPending(tx: EntityManager, organizationId: string, job: JobRow): Promise<() => Promise<void>> {
    const items = await this.jobs.cancelQueuedItems(tx, organizationId, job.id);
    return this.handlers.of(job.type).cancelled(tx, organizationId, job, items);
  }

  /** Erasure (docs/api.md §18.2): the prospect `fields` gone from the subject's job items. */
  redactItems(
    tx: EntityManager,
    organizationId: string,
    linkIds: string[],
    subject: DataSubject,
    fields: readonly string[],
  ): Promise<number> {
    return this.jobs.redactItems(tx, organizationId, linkIds, subject, fields);
  }

  private async viewOrThrow(organizationId: string, jobId: string, tx?: EntityManager): Promise<JobView> {
    const job = await this.views.find(organizationId, jobId, tx);
    if (!job) throw NotFoundError.inOrganization('Custom Link job');
    return job;
  }
}
