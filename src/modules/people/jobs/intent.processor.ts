import { InjectQueue, Process, Processor } from '@nestjs/bull';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { IntentRefreshService } from '../intent-refresh.service';
import { PEOPLE_INTENT_QUEUE, REFRESH_INTENT, REFRESH_INTENT_CRON, type RefreshIntentPayload } from './intent.queue';

/** Recomputes every person's intent daily (decay moves with time); reruns are harmless. */
@Processor(PEOPLE_INTENT_QUEUE)
export class IntentProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger(IntentProcessor.name);

  constructor(
    @InjectQueue(PEOPLE_INTENT_QUEUE) private readonly queue: Queue<RefreshIntentPayload>,
    private readonly intent: IntentRefreshService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Keyed by name and schedule: every worker may register it, one repeatable job exists.
    await this.queue.add(
      REFRESH_INTENT,
      {},
      { repeat: { cron: REFRESH_INTENT_CRON, tz: 'UTC' }, removeOnComplete: 10, removeOnFail: 10 },
    );
  }

  @Process(REFRESH_INTENT)
  async refreshIntent(job: Job<RefreshIntentPayload>): Promise<void> {
    const asOf = job.data.asOf ? new Date(job.data.asOf) : new Date();
    if (job.data.organizationId) await this.intent.refreshOrganization(job.data.organizationId, asOf);
    else await this.intent.refreshAll(asOf);
    this.logger.log(`Recomputed intent as of ${asOf.toISOString()}`);
  }
}
