import { InjectQueue, Process, Processor } from '@nestjs/bull';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import type { LeaseTerms } from '../../../common/queue/job-leases';
import { REAPABLE_JOBS, type LapsedJob, type ReapableJobs } from '../../../common/queue/job-reaper';
import { ImplementsPort } from '../../../common/wiring/port';
import { ExportRunner } from './export-runner.service';
import {
  EXPORTS_QUEUE,
  RUN_EXPORT,
  SWEEP_EVERY_MS,
  SWEEP_EXPIRED_EXPORTS,
  type RunExportPayload,
} from './exports.queue';

/**
 * Export runs (ids-only payload; a rerun starts the file over) and the hourly sweep of expired
 * exports; exports nobody runs come back through the reaper.
 */
@Processor(EXPORTS_QUEUE)
@ImplementsPort(REAPABLE_JOBS)
export class ExportsProcessor implements OnApplicationBootstrap, ReapableJobs<RunExportPayload> {
  readonly kind = 'export';
  readonly jobName = RUN_EXPORT;
  private readonly logger = new Logger('ExportsProcessor');

  constructor(
    private readonly runner: ExportRunner,
    @InjectQueue(EXPORTS_QUEUE) readonly queue: Queue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Repeatable jobs are keyed by name and schedule: every worker may register, one job exists.
    await this.queue.add(
      SWEEP_EXPIRED_EXPORTS,
      {},
      { repeat: { every: SWEEP_EVERY_MS }, removeOnComplete: 10, removeOnFail: 10 },
    );
  }

  @Process({ name: RUN_EXPORT, concurrency: 2 })
  async run(job: Job<RunExportPayload>): Promise<void> {
    await this.runner.run(job.data.organizationId, job.data.exportId);
  }

  @Process(SWEEP_EXPIRED_EXPORTS)
  async sweep(): Promise<void> {
    const deleted = await this.runner.sweepExpired();
    if (deleted > 0) this.logger.log(`Deleted ${deleted} expired exports`);
  }

  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return this.runner.reclaimLapsed(lease, limit);
  }

  payload(job: LapsedJob): RunExportPayload {
    return { organizationId: job.organizationId, exportId: job.id };
  }
}
