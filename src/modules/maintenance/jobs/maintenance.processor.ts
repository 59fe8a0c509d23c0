import { InjectQueue, Process, Processor } from '@nestjs/bull';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bull';
import { IdempotencyRepository } from '../../../common/idempotency/idempotency.repository';
import { MAINTENANCE_QUEUE, PURGE_IDEMPOTENCY_RECORDS, PURGE_IDEMPOTENCY_RECORDS_CRON } from './maintenance.queue';

/** Housekeeping on a repeatable schedule; each run is idempotent, so overlaps and reruns are harmless. */
@Processor(MAINTENANCE_QUEUE)
export class MaintenanceProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(
    @InjectQueue(MAINTENANCE_QUEUE) private readonly queue: Queue,
    private readonly idempotency: IdempotencyRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Repeatable jobs are keyed by name and schedule: every worker may register, one job exists.
    await this.queue.add(PURGE_IDEMPOTENCY_RECORDS, {}, {
      repeat: { cron: PURGE_IDEMPOTENCY_RECORDS_CRON },
      removeOnComplete: 10,
      removeOnFail: 10,
    });
  }

  @Process(PURGE_IDEMPOTENCY_RECORDS)
  async purgeIdempotencyRecords(): Promise<void> {
    const purged = await this.idempotency.purgeExpired();
    this.logger.log(`Purged ${purged} expired idempotency records`);
  }
}
