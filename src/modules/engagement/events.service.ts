import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
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
import {
  addEvent,
  countsAsEngagement,
  DISTINCT_KINDS,
  earlier,
  emptyStats,
  STAGE_EVIDENCE,
  type DistinctKind,
  type LinkStats,
  type StageMark,
} from './rules/engagement-rollup';
import { countryCodeOf, deviceOf, referrerDomainOf, utmOf } from './rules/event-context';
import { internalReasonOf, SettingsService, type InternalTrafficRules } from '../settings';
import { EngagementRepository, type NewEvent, type SessionTimes } from './engagement.repository';
import { LinkWebhooks } from './link-webhooks';
import { ROLLUP_LINKS, type RollupLinks } from './rollup-links';
import type { EventInput, EventsResponse } from './dto/events.request';

const SESSION_TIME: Record<StageMark, 'openedAt' | 'startedAt' | 'engagedAt'> = {
  opened: 'openedAt',
  started: 'startedAt',
  engaged: 'engagedAt',
};

/**
 * Batches of one organization committed together (group commit): a link row costs ~0.15 ms to
 * rewrite (a dozen indexes) and concurrent batches mostly touch the same hot links, so a group
 * rewrites each of them once. Two groups at once keep both cores busy, the second doing its inserts
 * while the first holds the link rows; a group stops at 5,000 events to bound its transaction.
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
 * Event ingestion (docs/api.md §6.2): resolves links, stores each eventId once, and merges the new
 * events' statistics into their links in one transaction per group of concurrent batches (a handful
 * of statements whatever their size). Opens from GET /l/{slug} arrive here too, off the request path.
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
    private readonly webhooks: LinkWebhooks,
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
   * Stores and rolls up resolved events; returns how many were new. `answer`: the request's answer,
   * committed with the events as its Idempotency-Key answer.
   */
  async apply(organizationId: string, events: NewEvent[], answer?: (accepted: number) => unknown): Promise<number> {
    if (events.length === 0) return 0;
    const accepted = await this.groups.submit(organizationId, { events, answer, claim: idempotencyClaims.getStore() });
    // Counted once committed, and only new events: a duplicate eventId is not late ingestion.
    for (const event of accepted) observeIngestionLag('link_event', event.occurredAt);
    if (accepted.length > 0) await this.links.changed(organizationId);
    return accepted.length;
  }

  /**
   * One transaction for a group of batches: the union folded as one batch, each new eventId counted
   * for the first batch that holds it (as if they had come one after another, in submission order).
   */
  private async commit(organizationId: string, submissions: Submission[]): Promise<NewEvent[][]> {
    return this.db.transaction(async (tx) => {
      const fresh = new Set(
        (
          await this.fold(
            tx,
            organizationId,
            submissions.flatMap((s) => s.events),
          )
        ).map((e) => e.eventId),
      );
      // Taking a new id out of the set gives it to the first batch holding it; later copies are duplicates.
      const accepted = submissions.map((s) => s.events.filter((e) => fresh.delete(e.eventId)));
      for (const [i, { answer, claim }] of submissions.entries()) {
        if (answer) await this.idempotency.completeClaim(tx, claim, answer(accepted[i].length));
      }
      return accepted;
    });
  }

  /** The new events among `events`, stored and merged into their links' rollups in `tx`; returns them. */
  private async fold(tx: EntityManager, organizationId: string, events: NewEvent[]): Promise<NewEvent[]> {
    const fresh = await this.engagement.insertEvents(
      tx,
      organizationId,
      [...events].sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0)),
    );
    const seen = new Set<string>();
    const newEvents = events.filter((e) => fresh.has(e.eventId) && !seen.has(e.eventId) && seen.add(e.eventId));
    if (newEvents.length === 0) return [];
    const statsByLink = new Map<string, LinkStats>();
    const sessions = new Map<string, SessionTimes>();
    for (const event of newEvents) {
      const stats = statsByLink.get(event.linkId) ?? emptyStats();
      addEvent(stats, event);
      statsByLink.set(event.linkId, stats);
      if (event.sessionId && countsAsEngagement(event)) this.addSessionTimes(sessions, event);
    }
    // Every phase takes its row locks in key order and the phases run in one order (events,
    // distinct values, session references, links), so concurrent batches never deadlock; the link
    // rows, which every batch of a link needs, are locked last and held only for the merge.
    const linkIds = [...statsByLink.keys()].sort();
    const distinct = linkIds.flatMap((linkId) =>
      DISTINCT_KINDS.flatMap((kind) =>
        [...(statsByLink.get(linkId) as LinkStats).distinct[kind]].sort().map((value) => ({ linkId, kind, value })),
      ),
    );
    const newDistinct = await this.engagement.insertDistinct(tx, organizationId, distinct);
    await this.engagement.mergeSessions(
      tx,
      organizationId,
      [...sessions.keys()].sort().map((key) => sessions.get(key) as SessionTimes),
    );
    const before = await this.links.merge(
      tx,
      organizationId,
      linkIds.map((linkId) => ({
        linkId,
        stats: statsByLink.get(linkId) as LinkStats,
        newDistinct: (kind: DistinctKind) => newDistinct.get(`${linkId}:${kind}`) ?? 0,
      })),
    );
    await this.webhooks.record(tx, organizationId, before, newEvents);
    return newEvents;
  }

  /** A session reference's times are the earliest of each kind (docs/api.md §6.6), by the shared stage evidence. */
  private addSessionTimes(sessions: Map<string, SessionTimes>, event: NewEvent): void {
    const key = `${event.linkId}:${event.sessionId}`;
    const at = event.occurredAt;
    const times = sessions.get(key) ?? {
      linkId: event.linkId,
      sessionId: event.sessionId as string,
      openedAt: null,
      startedAt: null,
      engagedAt: null,
      endedAt: null,
      firstSeenAt: at,
    };
    times.firstSeenAt = earlier(times.firstSeenAt, at);
    for (const stage of STAGE_EVIDENCE[event.type])
      times[SESSION_TIME[stage]] = earlier(times[SESSION_TIME[stage]], at);
    if (event.type === 'session_ended') times.endedAt = earlier(times.endedAt, at);
    sessions.set(key, times);
  }
}
