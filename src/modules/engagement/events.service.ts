import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { GroupCommit } from '../../common/batching/group-commit';
import {
  idempotencyClaims,
  IdempotencyRecorder,
  type IdempotencyClaim,
} from '../../common/idempotency/idempotency-recorder';
import { observeIngestionLag } from '../../common/metrics/app-metrics';
import { CountryLookup } from '../../common/network/country-lookup';
import { InjectPort } from '../../common/wiring/port';
import { botReasonOf, type BotReason } from './rules/bot-detection';
import { countryCodeOf, deviceOf, referrerDomainOf, utmOf } from './rules/event-context';
import { internalReasonOf, SettingsService, type InternalTrafficRules } from '../settings';
import { EngagementRepository, type NewEvent } from './engagement.repository';
import { ROLLUP_LINKS, type RollupLinks } from './rollup-links';
import type { EventInput, EventsResponse } from './dto/events.request';

/**
 * Batches of one organization appended together (group commit): a group pays one transaction and
 * one commit for however many batches arrived meanwhile; two groups at once keep both cores busy; a
 * group stops at 5,000 events to bound its transaction.
 */
const GROUP_SLOTS = 2;
const GROUP_MAX_EVENTS = 5000;

/** One caller's batch in a group: its events, and its Idempotency-Key answer, committed with them. */
interface Submission {
  events: NewEvent[];
  answer?: (accepted: number) => unknown;
  claim: IdempotencyClaim | undefined;
}

/**
 * A batch event's bot reason: its User-Agent's when it has one; `bot: true` with none found is the
 * client's verdict, which its tracker reaches from the browser's User-Agent (docs/api.md §6.3).
 */
function botReasonOfInput(input: EventInput): BotReason | null {
  const reason = input.userAgent === undefined ? null : botReasonOf({ userAgent: input.userAgent });
  return reason ?? (input.bot === true ? 'user_agent' : null);
}

/**
 * A validated batch event as it is stored and rolled up, once its link is resolved. `countryOf`
 * looks up a client address (which goes no further): an event's `country` wins over it.
 */
export function newEventOf(
  input: EventInput,
  linkId: string,
  countryOf: (address: string) => string | null,
  internalTraffic: InternalTrafficRules,
): NewEvent {
  const botReason = botReasonOfInput(input);
  const internalReason = internalReasonOf(
    { address: input.clientIp, visitorId: input.visitorId, userAgent: input.userAgent, declared: input.internal },
    internalTraffic,
  );
  return {
    linkId,
    eventId: input.eventId,
    type: input.type,
    occurredAt: input.occurredAt,
    pageViewId: input.pageViewId ?? null,
    visitorId: input.visitorId ?? null,
    sessionId: input.sessionId?.toLowerCase() ?? null,
    bot: botReason !== null,
    botReason,
    internal: internalReason !== null,
    internalReason,
    context: {
      country: countryCodeOf(input.country) ?? (input.clientIp === undefined ? null : countryOf(input.clientIp)),
      ...deviceOf(input.userAgent),
      referrerDomain: referrerDomainOf(input.referrer),
      utm: input.utm === undefined ? null : utmOf((field) => input.utm?.[field]),
    },
  };
}

/**
 * Event ingestion (docs/api.md §6.2): resolves links and appends each eventId once to the event log,
 * in one transaction per group of concurrent batches (two statements whatever their size); workers
 * fold the log into rollups (EventFold). Opens from GET /l/{slug} arrive here too, off the request path.
 */
@Injectable()
export class EventsService {
  private readonly groups = new GroupCommit<Submission, NewEvent[]>(
    (organizationId, submissions) => this.commit(organizationId, submissions),
    {
      slots: GROUP_SLOTS,
      maxWeight: GROUP_MAX_EVENTS,
      weigh: (submission) => submission.events.length,
    },
  );

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly engagement: EngagementRepository,
    @InjectPort(ROLLUP_LINKS) private readonly links: RollupLinks,
    private readonly idempotency: IdempotencyRecorder,
    private readonly countries: CountryLookup,
    private readonly settings: SettingsService,
  ) {}

  private readonly countryOf = (address: string) => this.countries.countryOf(address);

  async ingest(organizationId: string, inputs: EventInput[]): Promise<EventsResponse> {
    const ids = [...new Set(inputs.filter((e) => e.customLinkId).map((e) => (e.customLinkId as string).toLowerCase()))];
    const slugs = [...new Set(inputs.filter((e) => !e.customLinkId && e.slug).map((e) => e.slug as string))];
    const [links, internalTraffic] = await Promise.all([
      this.links.resolve(organizationId, ids, slugs),
      this.settings.internalTrafficRules(organizationId),
    ]);
    const byId = new Set(links.map((l) => l.id));
    const bySlug = new Map(links.map((l) => [l.slug, l.id]));
    const rejected: { index: number; reason: string }[] = [];
    const events: NewEvent[] = [];
    inputs.forEach((input, index) => {
      const linkId = input.customLinkId
        ? byId.has(input.customLinkId.toLowerCase())
          ? input.customLinkId.toLowerCase()
          : undefined
        : bySlug.get(input.slug as string);
      if (linkId) events.push(newEventOf(input, linkId, this.countryOf, internalTraffic));
      else rejected.push({ index, reason: 'unknown_link' });
    });
    const answer = (accepted: number): EventsResponse => ({ accepted, duplicates: events.length - accepted, rejected });
    return answer(await this.apply(organizationId, events, answer));
  }

  /**
   * Appends resolved events to the log; returns how many were new. `answer`: the request's answer,
   * committed with the events as its Idempotency-Key answer.
   */
  async apply(organizationId: string, events: NewEvent[], answer?: (accepted: number) => unknown): Promise<number> {
    if (events.length === 0) return 0;
    const accepted = await this.groups.submit(organizationId, { events, answer, claim: idempotencyClaims.getStore() });
    // Counted once committed, and only new events: a duplicate eventId is not late ingestion.
    for (const event of accepted) observeIngestionLag('link_event', event.occurredAt);
    return accepted.length;
  }

  /**
   * One transaction for a group of batches: the union appended to the log as one batch, each new
   * eventId counted for the first batch that holds it (as if they had come one after another, in
   * submission order). The fold takes it from there (EventFold).
   */
  private async commit(organizationId: string, submissions: Submission[]): Promise<NewEvent[][]> {
    const once = new Map<string, NewEvent>();
    for (const event of submissions.flatMap((s) => s.events))
      if (!once.has(event.eventId)) once.set(event.eventId, event);
    const sorted = [...once.values()].sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0));
    return this.db.transaction(async (tx) => {
      const fresh = await this.engagement.appendEvents(tx, organizationId, uuidv7(), sorted);
      // Taking a new id out of the set gives it to the first batch holding it; later copies are duplicates.
      const accepted = submissions.map((s) => s.events.filter((e) => fresh.delete(e.eventId)));
      for (const [i, { answer, claim }] of submissions.entries()) {
        if (answer) await this.idempotency.completeClaim(tx, claim, answer(accepted[i].length));
      }
      return accepted;
    });
  }
}
