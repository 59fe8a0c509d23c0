import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { v7 as uuidv7 } from 'uuid';
import { enqueue } from '../../common/queue/job-options';
import { AppConfigService } from '../../config/app-config';
import { LINK_OPENS_QUEUE, RECORD_OPEN, type RecordOpenPayload } from './jobs/link-opens.queue';
import { botReasonOf, type BotSignals } from './rules/bot-detection';

/** Opens of a link's public URL, queued so the redirect costs one queue write (docs/api.md §6.1). */
@Injectable()
export class LinkOpensService {
  constructor(
    @InjectQueue(LINK_OPENS_QUEUE) private readonly opens: Queue<RecordOpenPayload>,
    private readonly config: AppConfigService,
  ) {}

  async queue(link: { organizationId: string; id: string }, request: BotSignals): Promise<void> {
    const eventId = `open-${uuidv7()}`;
    const botReason = botReasonOf(request);
    const open: RecordOpenPayload = {
      organizationId: link.organizationId,
      linkId: link.id,
      eventId,
      occurredAt: new Date().toISOString(),
      bot: botReason !== null,
      botReason,
    };
    await enqueue(this.opens, RECORD_OPEN, open, eventId, this.config.values.timeouts.redisCommandMs);
  }
}
