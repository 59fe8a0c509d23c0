import type { EngagementEvent, EventType } from './engagement-rollup';
import { linkEventCauses, type MilestoneTimes } from './link-milestones';

const NONE: MilestoneTimes = {
  firstStartedAt: null,
  firstEngagedAt: null,
  firstLeadSubmittedAt: null,
  firstMeetingBookedAt: null,
};
const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 9, n));
const event = (
  eventId: string,
  type: EventType,
  minute: number,
  bot = false,
  linkId = 'L',
): EngagementEvent & { linkId: string } => ({
  linkId,
  eventId,
  type,
  occurredAt: at(minute),
  pageViewId: null,
  visitorId: null,
  sessionId: null,
  bot,
});
const summary = (causes: ReturnType<typeof linkEventCauses>) =>
  causes.map((c) => `${c.type}:${c.linkId}:${c.event.eventId}`);

describe('linkEventCauses', () => {
  it('fires opened for every human open and nothing for a bot open or a page view', () => {
    const events = [
      event('o1', 'open', 1),
      event('o2', 'open', 2),
      event('b1', 'open', 3, true),
      event('p1', 'page_view', 4),
    ];
    expect(summary(linkEventCauses(new Map([['L', NONE]]), events))).toEqual([
      'custom_link.opened:L:o1',
      'custom_link.opened:L:o2',
    ]);
  });

  it('fires each milestone not reached before, caused by the earliest event evidencing it', () => {
    const events = [
      event('s2', 'session_started', 5),
      event('s1', 'session_started', 3),
      event('e1', 'session_engaged', 6),
      event('l1', 'lead_submitted', 7),
      event('m1', 'meeting_booked', 8),
    ];
    expect(summary(linkEventCauses(new Map([['L', NONE]]), events))).toEqual([
      'custom_link.session_started:L:s1',
      'custom_link.engaged:L:e1',
      'custom_link.lead:L:l1',
      'custom_link.meeting_booked:L:m1',
    ]);
  });

  it('fires nothing a link already reached: an engaged link has reached started', () => {
    const engaged = { ...NONE, firstEngagedAt: at(0) };
    expect(
      summary(
        linkEventCauses(new Map([['L', engaged]]), [
          event('s1', 'session_started', 1),
          event('e1', 'session_engaged', 2),
        ]),
      ),
    ).toEqual([]);
  });

  it('a meeting booked first evidences every stage (started, engaged) and no lead', () => {
    expect(summary(linkEventCauses(new Map([['L', NONE]]), [event('m1', 'meeting_booked', 1)]))).toEqual([
      'custom_link.session_started:L:m1',
      'custom_link.engaged:L:m1',
      'custom_link.meeting_booked:L:m1',
    ]);
  });

  it('ignores bot events and keeps links apart', () => {
    const events = [event('b1', 'session_started', 1, true, 'A'), event('s1', 'session_started', 2, false, 'B')];
    expect(
      summary(
        linkEventCauses(
          new Map([
            ['A', NONE],
            ['B', NONE],
          ]),
          events,
        ),
      ),
    ).toEqual(['custom_link.session_started:B:s1']);
  });

  it('fires nothing for internal events (docs/api.md §6.8), however far they would move the link', () => {
    const internal = (eventId: string, type: EventType, minute: number) => ({
      ...event(eventId, type, minute),
      internal: true,
    });
    const events = [internal('i1', 'open', 1), internal('i2', 'meeting_booked', 2), event('o1', 'open', 3)];
    expect(summary(linkEventCauses(new Map([['L', NONE]]), events))).toEqual(['custom_link.opened:L:o1']);
  });
});
