import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { EventsService } from '../events.service';
import { noContext } from '../rules/event-context';
import { LINK_OPENS_QUEUE, RECORD_OPEN, type RecordOpenPayload } from './link-opens.queue';

/** Opens from GET /l/{slug} through the event pipeline; the eventId makes a rerun a duplicate. */
@Processor(LINK_OPENS_QUEUE)
export class LinkOpensProcessor {
  constructor(private readonly events: EventsService) {}

  @Process({ name: RECORD_OPEN, concurrency: 4 })
  async record(job: Job<RecordOpenPayload>): Promise<void> {
    const open = job.data;
    await this.events.apply(open.organizationId, [
      {
        linkId: open.linkId,
        eventId: open.eventId,
        type: open.refused === true ? 'refused_open' : 'open',
        occurredAt: new Date(open.occurredAt),
        pageViewId: null,
        visitorId: null,
        sessionId: null,
        bot: open.bot,
        botReason: open.botReason ?? null,
        context: open.context ?? noContext(),
        internal: (open.internalReason ?? null) !== null,
        internalReason: open.internalReason ?? null,
      },
    ]);
  }
}
