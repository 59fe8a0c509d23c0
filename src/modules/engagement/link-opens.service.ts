import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { v7 as uuidv7 } from 'uuid';
import { CountryLookup } from '../../common/network/country-lookup';
import { enqueue } from '../../common/queue/job-options';
import { AppConfigService } from '../../config/app-config';
import { LINK_OPENS_QUEUE, RECORD_OPEN, type RecordOpenPayload } from './jobs/link-opens.queue';
import { botReasonOf, type BotSignals } from './rules/bot-detection';
import { countryCodeOf, deviceOf, referrerDomainOf, type EventContext, type Utm } from './rules/event-context';
import { internalReasonOf, SettingsService } from '../settings';

/** What a request to GET /l/{slug} tells of the open, as the public route reads it. */
export interface OpenSignals extends BotSignals {
  /** The client address (as TRUST_PROXY lets Express derive it): looked up here, then dropped. */
  clientAddress: string | null;
  /** The country a trusted proxy reports (GEO_COUNTRY_HEADER); null when none is configured, sent or trusted. */
  proxyCountry: string | null;
  referrer: string | null;
  utm: Utm | null;
  /** Opened through the link's preview URL (its token checked). */
  preview: boolean;
}

/** Opens of a link's public URL, queued so the redirect costs one queue write (docs/api.md §6.1). */
@Injectable()
export class LinkOpensService {
  constructor(
    @InjectQueue(LINK_OPENS_QUEUE) private readonly opens: Queue<RecordOpenPayload>,
    private readonly config: AppConfigService,
    private readonly countries: CountryLookup,
    private readonly settings: SettingsService,
  ) {}

  /**
   * The open as it will be recorded: who sent it (bot reason, internal reason) and its context,
   * decided on the request path, where its address is known.
   */
  async classify(link: { organizationId: string; id: string }, request: OpenSignals): Promise<RecordOpenPayload> {
    const eventId = `open-${uuidv7()}`;
    const botReason = botReasonOf(request);
    const internalTraffic = await this.settings.internalTrafficRules(link.organizationId);
    const open: RecordOpenPayload = {
      organizationId: link.organizationId,
      linkId: link.id,
      eventId,
      occurredAt: new Date().toISOString(),
      bot: botReason !== null,
      botReason,
      context: this.contextOf(request),
      internalReason: internalReasonOf(
        { address: request.clientAddress, userAgent: request.userAgent, preview: request.preview },
        internalTraffic,
      ),
    };
    return open;
  }

  /** Records a classified open off the request path; `refused`: the link was expired or capped (it moves nothing). */
  async queue(open: RecordOpenPayload, refused = false): Promise<void> {
    const payload: RecordOpenPayload = refused ? { ...open, refused } : open;
    await enqueue(this.opens, RECORD_OPEN, payload, open.eventId, this.config.values.timeouts.redisCommandMs);
  }

  /** The open's context (docs/api.md §6.1): the proxy's country, else the address's; never the address. */
  private contextOf(request: OpenSignals): EventContext {
    return {
      country: countryCodeOf(request.proxyCountry) ?? this.countries.countryOf(request.clientAddress),
      ...deviceOf(request.userAgent),
      referrerDomain: referrerDomainOf(request.referrer),
      utm: request.utm,
    };
  }
}
