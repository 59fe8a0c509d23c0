import { countsAsEngagement, STAGE_EVIDENCE, type EngagementEvent, type TimeStats } from './engagement-rollup';

/** A link's times that say which stages and flags it has reached, as stored before a batch. */
export type MilestoneTimes = Pick<
  TimeStats,
  'firstStartedAt' | 'firstEngagedAt' | 'firstLeadSubmittedAt' | 'firstMeetingBookedAt'
>;

/** The link webhook events (issue 20 point 1). */
export const LINK_EVENT_TYPES = [
  'custom_link.opened',
  'custom_link.session_started',
  'custom_link.engaged',
  'custom_link.lead',
  'custom_link.meeting_booked',
] as const;
export type LinkEventType = (typeof LINK_EVENT_TYPES)[number];

export interface LinkEventCause {
  type: LinkEventType;
  linkId: string;
  event: Pick<EngagementEvent, 'eventId' | 'occurredAt'>;
}

type Reached = (times: MilestoneTimes) => boolean;
type Evidence = (event: EngagementEvent) => boolean;

/**
 * Milestones fire when the link's stage or flag first reaches them. The stage is ordered (a link
 * that reaches `engaged` has reached `started` too), so an engaged link never fires `session_started`
 * later and a jump from `opened` to `engaged` fires both.
 */
const MILESTONES: [LinkEventType, Reached, Evidence][] = [
  [
    'custom_link.session_started',
    (t) => t.firstStartedAt !== null || t.firstEngagedAt !== null,
    (e) => STAGE_EVIDENCE[e.type].some((s) => s === 'started' || s === 'engaged'),
  ],
  ['custom_link.engaged', (t) => t.firstEngagedAt !== null, (e) => STAGE_EVIDENCE[e.type].includes('engaged')],
  ['custom_link.lead', (t) => t.firstLeadSubmittedAt !== null, (e) => e.type === 'lead_submitted'],
  ['custom_link.meeting_booked', (t) => t.firstMeetingBookedAt !== null, (e) => e.type === 'meeting_booked'],
];

const firstOf = (events: EngagementEvent[]) =>
  events.reduce<EngagementEvent | null>(
    (a, e) =>
      a === null ||
      e.occurredAt < a.occurredAt ||
      (e.occurredAt.getTime() === a.occurredAt.getTime() && e.eventId < a.eventId)
        ? e
        : a,
    null,
  );

/**
 * The link events a batch of new (deduplicated) events causes, given each link's times before it
 * (read under the link's lock, so concurrent batches fire a milestone once): every human open, and
 * each milestone a link had not reached, caused by the batch's earliest event evidencing it.
 */
export function linkEventCauses<E extends EngagementEvent & { linkId: string }>(
  before: Map<string, MilestoneTimes>,
  events: E[],
): LinkEventCause[] {
  const causes: LinkEventCause[] = events
    .filter((e) => e.type === 'open' && countsAsEngagement(e))
    .map((e) => ({ type: 'custom_link.opened', linkId: e.linkId, event: e }));
  const humanByLink = new Map<string, E[]>();
  for (const e of events) {
    if (!countsAsEngagement(e)) continue;
    const human = humanByLink.get(e.linkId);
    if (human) human.push(e);
    else humanByLink.set(e.linkId, [e]);
  }
  for (const [linkId, times] of before) {
    const human = humanByLink.get(linkId) ?? [];
    for (const [type, reached, evidence] of MILESTONES) {
      if (reached(times)) continue;
      const cause = firstOf(human.filter(evidence));
      if (cause) causes.push({ type, linkId, event: cause });
    }
  }
  return causes;
}
