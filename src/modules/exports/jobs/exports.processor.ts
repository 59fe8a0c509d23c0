import { InjectQueue, Process, Processor } from '@nestjs/bull';
import { Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { JobReaper } from '../../../common/queue/job-reaper';
import { ExportRunner } from './export-runner.service';
import {
  EXPORTS_QUEUE,
  RUN_EXPORT,
  SWEEP_EVERY_MS,
  SWEEP_EXPIRED_EXPORTS,
  type RunExportPayload,
} from './exports.queue';

/** Export runs (ids-only payload; a rerun starts the file over) and the hourly sweep of expired exports. */
@Processor(EXPORTS_QUEUE)
export class ExportsProcessor implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('ExportsProcessor');

  constructor(
    private readonly runner: ExportRunner,
    private readonly reaper: JobReaper,
    @InjectQueue(EXPORTS_QUEUE) private readonly queue: Queue,
  ) {}

  onModuleInit(): void {
    this.reaper.register(this.runner.reapable());
  }

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
}
