import { earlier, FIRST_AT, STAGE_EVIDENCE, stageOf, type EventType, type Stage } from './engagement-rollup';

/** The lifecycle of a session reached through a Custom Link (docs/api.md §2.2): its stage and observed events. */
export interface Lifecycle {
  stage: Stage;
  events: { eventType: string; observedAt: string }[];
}

/** How each event type shows in a lifecycle: opens and page loads are both `opened`. */
const LIFECYCLE_EVENT: Record<EventType, string> = {
  open: 'opened',
  page_view: 'opened',
  session_started: 'started',
  session_engaged: 'engaged',
  session_ended: 'ended',
  lead_submitted: 'lead_submitted',
  meeting_clicked: 'meeting_clicked',
  meeting_booked: 'meeting_booked',
  refused_open: 'refused_open',
};

/**
 * From the earliest human event of each type for the session: one lifecycle event per kind at its
 * earliest time, oldest first; the stage as a link's (lead or meeting evidence counts as engaged).
 */
export function lifecycleOf(earliestByType: { type: EventType; at: Date }[]): Lifecycle {
  const byKind = new Map<string, Date>();
  const reached = {
    firstOpenedAt: null as Date | null,
    firstStartedAt: null as Date | null,
    firstEngagedAt: null as Date | null,
  };
  for (const { type, at } of earliestByType) {
    const kind = LIFECYCLE_EVENT[type];
    const known = byKind.get(kind);
    if (!known || at < known) byKind.set(kind, at);
    for (const stage of STAGE_EVIDENCE[type]) reached[FIRST_AT[stage]] = earlier(reached[FIRST_AT[stage]], at);
  }
  return {
    stage: stageOf(reached),
    events: [...byKind]
      .sort(([ka, a], [kb, b]) => a.getTime() - b.getTime() || ka.localeCompare(kb))
      .map(([eventType, at]) => ({ eventType, observedAt: at.toISOString() })),
  };
}
