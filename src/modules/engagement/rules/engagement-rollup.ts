import { BOT_REASONS, type BotReason } from './bot-detection';

/**
 * Link engagement rules (docs/api.md §2.7, §3.1, §6.4) as sufficient statistics: counters,
 * distinct sets, earliest and latest times, and the last activity. Statistics of disjoint event sets
 * merge by adding counters, uniting sets, taking minima and maxima, so any order or batching of the
 * same events gives the same rollup; the stored rollup is this merge, kept per link.
 */
export const INGESTED_EVENT_TYPES = [
  'open',
  'page_view',
  'session_started',
  'session_engaged',
  'session_ended',
  'lead_submitted',
  'meeting_clicked',
  'meeting_booked',
] as const;
export type IngestedEventType = (typeof INGESTED_EVENT_TYPES)[number];

/**
 * The types the event log holds: those POST /api/v1/events takes, and `refused_open`, an open of an
 * expired or capped link (issue 36) that GET /l/{slug} records so the timeline shows the attempt; it
 * moves nothing.
 */
export const EVENT_TYPES = [...INGESTED_EVENT_TYPES, 'refused_open'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EngagementEvent {
  eventId: string;
  type: EventType;
  occurredAt: Date;
  pageViewId: string | null;
  visitorId: string | null;
  sessionId: string | null;
  bot: boolean;
  /** Why a bot event is one (null for humans, and for bot events stored before reasons were). */
  botReason?: BotReason | null;
  /** Sent by the organization's own people (docs/api.md §6.8): moves nothing but the link's internal opens. */
  internal?: boolean;
}

/** An event that counts (docs/api.md §6.3, §6.8): neither a bot's nor internal. */
export const countsAsEngagement = (event: Pick<EngagementEvent, 'bot' | 'internal'>): boolean =>
  !event.bot && event.internal !== true;

/** Bot opens by reason (docs/api.md §2.7 `botOpens`). */
export type BotOpens = Record<BotReason, number>;

export const noBotOpens = (): BotOpens => Object.fromEntries(BOT_REASONS.map((reason) => [reason, 0])) as BotOpens;

/** The distinct sets behind the distinct counts, by kind. */
export const DISTINCT_KINDS = [
  'page_view',
  'ephemeral_page_view',
  'visitor',
  'session',
  'started_session',
  'engaged_session',
] as const;
export type DistinctKind = (typeof DISTINCT_KINDS)[number];

export interface TimeStats {
  firstOpenedAt: Date | null;
  lastOpenedAt: Date | null;
  firstStartedAt: Date | null;
  firstEngagedAt: Date | null;
  firstLeadSubmittedAt: Date | null;
  firstMeetingClickedAt: Date | null;
  firstMeetingBookedAt: Date | null;
}

export interface LastActivity {
  at: Date;
  type: EventType;
  eventId: string;
}

export interface LinkStats extends TimeStats {
  openObserved: boolean;
  botOpenCount: number;
  botOpens: BotOpens;
  internalOpenCount: number;
  loadCount: number;
  distinct: Record<DistinctKind, Set<string>>;
  lastActivity: LastActivity | null;
}

const CONVERSIONS: Partial<Record<EventType, keyof TimeStats>> = {
  lead_submitted: 'firstLeadSubmittedAt',
  meeting_clicked: 'firstMeetingClickedAt',
  meeting_booked: 'firstMeetingBookedAt',
};

/** The stages whose first time an event is evidence of. */
export type StageMark = 'opened' | 'started' | 'engaged';

/**
 * Stage evidence (docs/api.md §3.1, §6.4), shared by link rollups, session references and session
 * lifecycles: opens and loads show `opened`, sessions `started` / `engaged`, and lead or meeting
 * evidence every earlier stage (a browser event may have been missed).
 */
export const STAGE_EVIDENCE: Record<EventType, readonly StageMark[]> = {
  open: ['opened'],
  page_view: ['opened'],
  session_started: ['started'],
  session_engaged: ['engaged'],
  session_ended: [],
  lead_submitted: ['opened', 'started', 'engaged'],
  meeting_clicked: ['opened', 'started', 'engaged'],
  meeting_booked: ['opened', 'started', 'engaged'],
  refused_open: [],
};

/** The link (and lifecycle) time each stage mark sets. */
export const FIRST_AT: Record<StageMark, 'firstOpenedAt' | 'firstStartedAt' | 'firstEngagedAt'> = {
  opened: 'firstOpenedAt',
  started: 'firstStartedAt',
  engaged: 'firstEngagedAt',
};

export const earlier = (a: Date | null, b: Date) => (a === null || b < a ? b : a);
const later = (a: Date | null, b: Date) => (a === null || b > a ? b : a);

/**
 * Whether `a` is a later activity than `b`: by time, then by eventId in UTF-8 byte order (as the
 * SQL merge compares with COLLATE "C"), so ties never depend on order or batching.
 */
export function isLaterActivity(a: LastActivity, b: LastActivity | null): boolean {
  if (b === null || a.at > b.at) return true;
  return a.at.getTime() === b.at.getTime() && Buffer.compare(Buffer.from(a.eventId), Buffer.from(b.eventId)) > 0;
}

export function emptyStats(): LinkStats {
  return {
    openObserved: false,
    botOpenCount: 0,
    botOpens: noBotOpens(),
    internalOpenCount: 0,
    loadCount: 0,
    distinct: Object.fromEntries(DISTINCT_KINDS.map((kind) => [kind, new Set<string>()])) as Record<
      DistinctKind,
      Set<string>
    >,
    firstOpenedAt: null,
    lastOpenedAt: null,
    firstStartedAt: null,
    firstEngagedAt: null,
    firstLeadSubmittedAt: null,
    firstMeetingClickedAt: null,
    firstMeetingBookedAt: null,
    lastActivity: null,
  };
}

/**
 * Adds one (deduplicated) event to the statistics. Bot events only count as bot opens, internal ones
 * (that are no bot's) only as internal opens.
 */
export function addEvent(stats: LinkStats, event: EngagementEvent): void {
  if (event.type === 'refused_open') return;
  const at = event.occurredAt;
  if (event.bot) {
    if (event.type !== 'open') return;
    stats.botOpenCount += 1;
    if (event.botReason) stats.botOpens[event.botReason] += 1;
    return;
  }
  if (event.internal) {
    if (event.type === 'open') stats.internalOpenCount += 1;
    return;
  }
  const activity = { at, type: event.type, eventId: event.eventId };
  if (isLaterActivity(activity, stats.lastActivity)) stats.lastActivity = activity;
  if (event.sessionId) stats.distinct.session.add(event.sessionId);
  for (const stage of STAGE_EVIDENCE[event.type]) stats[FIRST_AT[stage]] = earlier(stats[FIRST_AT[stage]], at);
  switch (event.type) {
    case 'page_view':
      stats.loadCount += 1;
      if (event.pageViewId) stats.distinct.page_view.add(event.pageViewId);
      if (event.visitorId) stats.distinct.visitor.add(event.visitorId);
      else if (event.pageViewId) stats.distinct.ephemeral_page_view.add(event.pageViewId);
      markOpened(stats, at);
      break;
    case 'open':
      markOpened(stats, at);
      break;
    case 'session_started':
      if (event.sessionId) stats.distinct.started_session.add(event.sessionId);
      break;
    case 'session_engaged':
      if (event.sessionId) stats.distinct.engaged_session.add(event.sessionId);
      break;
    case 'session_ended':
      break;
    case 'lead_submitted':
    case 'meeting_clicked':
    case 'meeting_booked': {
      const field = CONVERSIONS[event.type] as keyof TimeStats;
      stats[field] = earlier(stats[field], at);
      break;
    }
  }
}

/** A human open or load: `openObserved` and the latest open (its first time comes from STAGE_EVIDENCE). */
function markOpened(stats: LinkStats, at: Date): void {
  stats.openObserved = true;
  stats.lastOpenedAt = later(stats.lastOpenedAt, at);
}

export function statsOf(events: Iterable<EngagementEvent>): LinkStats {
  const stats = emptyStats();
  const seen = new Set<string>();
  for (const event of events) {
    if (seen.has(event.eventId)) continue;
    seen.add(event.eventId);
    addEvent(stats, event);
  }
  return stats;
}

export type Stage = 'not_opened' | 'opened' | 'started' | 'engaged';

export function stageOf(times: Pick<TimeStats, 'firstOpenedAt' | 'firstStartedAt' | 'firstEngagedAt'>): Stage {
  if (times.firstEngagedAt) return 'engaged';
  if (times.firstStartedAt) return 'started';
  if (times.firstOpenedAt) return 'opened';
  return 'not_opened';
}

/** The stored form of a rollup: counters in place of the distinct sets. */
export interface StoredEngagement extends TimeStats {
  openObserved: boolean;
  botOpenCount: number;
  /** A reason never seen may be absent (0). */
  botOpens: Partial<BotOpens>;
  internalOpenCount: number;
  loadCount: number;
  pageViewCount: number;
  persistentUniqueVisitorCount: number;
  ephemeralPageViewCount: number;
  sessionCount: number;
  startedSessionCount: number;
  engagedSessionCount: number;
  lastActivityAt: Date | null;
  lastActivityType: string | null;
}

export function storedFormOf(stats: LinkStats): StoredEngagement {
  return {
    openObserved: stats.openObserved,
    botOpenCount: stats.botOpenCount,
    botOpens: { ...stats.botOpens },
    internalOpenCount: stats.internalOpenCount,
    loadCount: stats.loadCount,
    pageViewCount: stats.distinct.page_view.size,
    persistentUniqueVisitorCount: stats.distinct.visitor.size,
    ephemeralPageViewCount: stats.distinct.ephemeral_page_view.size,
    sessionCount: stats.distinct.session.size,
    startedSessionCount: stats.distinct.started_session.size,
    engagedSessionCount: stats.distinct.engaged_session.size,
    firstOpenedAt: stats.firstOpenedAt,
    lastOpenedAt: stats.lastOpenedAt,
    firstStartedAt: stats.firstStartedAt,
    firstEngagedAt: stats.firstEngagedAt,
    firstLeadSubmittedAt: stats.firstLeadSubmittedAt,
    firstMeetingClickedAt: stats.firstMeetingClickedAt,
    firstMeetingBookedAt: stats.firstMeetingBookedAt,
    lastActivityAt: stats.lastActivity?.at ?? null,
    lastActivityType: stats.lastActivity?.type ?? null,
  };
}

/**
 * Unique visitors (docs/api.md §6.4): persistent visitors plus ephemeral page views, `estimated` once
 * any ephemeral view contributed; loads per visitor null until one is seen. Links and campaigns alike.
 */
export function visitorFigures(loadCount: number, persistent: number, ephemeral: number) {
  const uniqueVisitorCount = persistent + ephemeral;
  return {
    uniqueVisitorCount,
    loadsPerUniqueVisitor: uniqueVisitorCount > 0 ? loadCount / uniqueVisitorCount : null,
    visitorCountMode: ephemeral > 0 ? ('estimated' as const) : ('identified' as const),
  };
}

/** docs/api.md §2.7 from the stored form. */
export function engagementOf(stored: StoredEngagement) {
  const visitors = visitorFigures(stored.loadCount, stored.persistentUniqueVisitorCount, stored.ephemeralPageViewCount);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    stage: stageOf(stored),
    openObserved: stored.openObserved,
    botScannedOnly: stored.botOpenCount > 0 && !stored.openObserved,
    botOpens: { ...noBotOpens(), ...stored.botOpens },
    internalOpens: stored.internalOpenCount,
    pageViewCount: stored.pageViewCount,
    loadCount: stored.loadCount,
    uniqueVisitorCount: visitors.uniqueVisitorCount,
    persistentUniqueVisitorCount: stored.persistentUniqueVisitorCount,
    ephemeralPageViewCount: stored.ephemeralPageViewCount,
    loadsPerUniqueVisitor: visitors.loadsPerUniqueVisitor,
    visitorCountMode: visitors.visitorCountMode,
    firstOpenedAt: iso(stored.firstOpenedAt),
    lastOpenedAt: iso(stored.lastOpenedAt),
    sessionCount: stored.sessionCount,
    startedSessionCount: stored.startedSessionCount,
    engagedSessionCount: stored.engagedSessionCount,
    leadSubmitted: stored.firstLeadSubmittedAt !== null,
    meetingClicked: stored.firstMeetingClickedAt !== null,
    meetingBooked: stored.firstMeetingBookedAt !== null,
    lastActivityAt: iso(stored.lastActivityAt),
    lastActivityType: stored.lastActivityType,
    firstStartedAt: iso(stored.firstStartedAt),
    firstEngagedAt: iso(stored.firstEngagedAt),
    firstLeadSubmittedAt: iso(stored.firstLeadSubmittedAt),
    firstMeetingClickedAt: iso(stored.firstMeetingClickedAt),
    firstMeetingBookedAt: iso(stored.firstMeetingBookedAt),
  };
}
