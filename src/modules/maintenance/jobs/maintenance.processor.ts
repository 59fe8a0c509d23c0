import { InjectQueue, Process, Processor } from '@nestjs/bull';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bull';
import { IdempotencyRepository } from '../../../common/idempotency/idempotency.repository';
import { LinkAccessEvents } from '../../custom-links';
import { RetentionService } from '../../retention';
import { EmailGramSamples } from '../../sessions';
import { WebhookHistory } from '../../webhooks';
import { MaintenanceRepository } from '../maintenance.repository';
import {
  COMPACT_SESSION_COUNTS,
  COMPACT_SESSION_COUNTS_EVERY_MS,
  MAINTENANCE_QUEUE,
  PURGE_IDEMPOTENCY_RECORDS,
  PURGE_IDEMPOTENCY_RECORDS_CRON,
  RUN_RETENTION,
  RUN_RETENTION_CRON,
  SAMPLE_EMAIL_GRAMS,
  SAMPLE_EMAIL_GRAMS_EVERY_MS,
  SWEEP_LINK_ACCESS,
  SWEEP_LINK_ACCESS_EVERY_MS,
  SWEEP_WEBHOOK_MESSAGES,
  SWEEP_WEBHOOK_MESSAGES_CRON,
} from './maintenance.queue';

/** Housekeeping on a repeatable schedule; each run is idempotent, so overlaps and reruns are harmless. */
@Processor(MAINTENANCE_QUEUE)
export class MaintenanceProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(
    @InjectQueue(MAINTENANCE_QUEUE) private readonly queue: Queue,
    private readonly idempotency: IdempotencyRepository,
    private readonly maintenance: MaintenanceRepository,
    private readonly retention: RetentionService,
    private readonly webhookHistory: WebhookHistory,
    private readonly linkAccess: LinkAccessEvents,
    private readonly emailGrams: EmailGramSamples,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Repeatable jobs are keyed by name and schedule: every worker may register, one job exists.
    await this.queue.add(
      PURGE_IDEMPOTENCY_RECORDS,
      {},
      {
        repeat: { cron: PURGE_IDEMPOTENCY_RECORDS_CRON },
        removeOnComplete: 10,
        removeOnFail: 10,
      },
    );
    await this.queue.add(
      COMPACT_SESSION_COUNTS,
      {},
      { repeat: { every: COMPACT_SESSION_COUNTS_EVERY_MS }, removeOnComplete: 10, removeOnFail: 10 },
    );
    await this.queue.add(
      RUN_RETENTION,
      {},
      { repeat: { cron: RUN_RETENTION_CRON }, removeOnComplete: 10, removeOnFail: 10 },
    );
    await this.queue.add(
      SWEEP_LINK_ACCESS,
      {},
      { repeat: { every: SWEEP_LINK_ACCESS_EVERY_MS }, removeOnComplete: 10, removeOnFail: 10 },
    );
    await this.queue.add(
      SWEEP_WEBHOOK_MESSAGES,
      {},
      { repeat: { cron: SWEEP_WEBHOOK_MESSAGES_CRON }, removeOnComplete: 10, removeOnFail: 10 },
    );
    await this.queue.add(
      SAMPLE_EMAIL_GRAMS,
      {},
      { repeat: { every: SAMPLE_EMAIL_GRAMS_EVERY_MS }, removeOnComplete: 10, removeOnFail: 10 },
    );
  }

  @Process(PURGE_IDEMPOTENCY_RECORDS)
  async purgeIdempotencyRecords(): Promise<void> {
    const purged = await this.idempotency.purgeExpired();
    this.logger.log(`Purged ${purged} expired idempotency records`);
  }

  @Process(COMPACT_SESSION_COUNTS)
  async compactSessionCounts(): Promise<void> {
    const folded = await this.maintenance.compactSessionCounts();
    if (folded > 0) this.logger.debug(`Folded ${folded} session count deltas`);
  }

  /** Each organization's run logs its own counts (RetentionService). */
  @Process(RUN_RETENTION)
  async runRetention(): Promise<void> {
    await this.retention.runAll();
  }

  /** Announces links that expired (or were capped by an edit) since the last run; safe on several workers. */
  @Process(SWEEP_LINK_ACCESS)
  async sweepLinkAccess(): Promise<void> {
    const closed = await this.linkAccess.sweep();
    if (closed > 0) this.logger.debug(`Announced ${closed} expired or capped links`);
  }

  @Process(SWEEP_WEBHOOK_MESSAGES)
  async sweepWebhookMessages(): Promise<void> {
    const deleted = await this.webhookHistory.sweepOld();
    if (deleted > 0) this.logger.log({ deleted }, 'Deleted webhook messages past their lifetime');
  }

  @Process(SAMPLE_EMAIL_GRAMS)
  async sampleEmailGrams(): Promise<void> {
    const sampled = await this.emailGrams.sweep();
    if (sampled > 0) this.logger.debug(`Sampled the email grams of ${sampled} organizations`);
  }
}
