import fc from 'fast-check';
import { lifecycleOf } from './lifecycle';
import { BOT_REASONS, botReasonOf, isBotRequest } from './bot-detection';
import {
  addEvent,
  DISTINCT_KINDS,
  emptyStats,
  engagementOf,
  isLaterActivity,
  stageOf,
  statsOf,
  storedFormOf,
  type EngagementEvent,
  type EventType,
  type LinkStats,
} from './engagement-rollup';

/** Minute `n` of 2026-01-01 (UTC). */
const T = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, n));
const iso = (n: number) => T(n).toISOString();

let seq = 0;
function ev(type: EventType, minute: number, extra: Partial<EngagementEvent> = {}): EngagementEvent {
  return {
    eventId: `e-${++seq}`,
    type,
    occurredAt: T(minute),
    pageViewId: null,
    visitorId: null,
    sessionId: null,
    bot: false,
    ...extra,
  };
}
const rollup = (events: EngagementEvent[]) => engagementOf(storedFormOf(statsOf(events)));

const EMPTY = {
  stage: 'not_opened',
  openObserved: false,
  botScannedOnly: false,
  botOpens: { user_agent: 0, prefetch: 0, head_request: 0, scanner: 0 },
  internalOpens: 0,
  pageViewCount: 0,
  loadCount: 0,
  uniqueVisitorCount: 0,
  persistentUniqueVisitorCount: 0,
  ephemeralPageViewCount: 0,
  loadsPerUniqueVisitor: null,
  visitorCountMode: 'identified',
  firstOpenedAt: null,
  lastOpenedAt: null,
  sessionCount: 0,
  startedSessionCount: 0,
  engagedSessionCount: 0,
  leadSubmitted: false,
  meetingClicked: false,
  meetingBooked: false,
  lastActivityAt: null,
  lastActivityType: null,
  firstStartedAt: null,
  firstEngagedAt: null,
  firstLeadSubmittedAt: null,
  firstMeetingClickedAt: null,
  firstMeetingBookedAt: null,
};

describe('engagement rollup rules', () => {
  it('an empty event set is the docs/api.md §2.7 zero rollup with every field present', () => {
    expect(rollup([])).toEqual(EMPTY);
  });

  describe('loads, page views and visitors', () => {
    it('counts every load, distinct page views, and persistent visitors (identified mode)', () => {
      const r = rollup([
        ev('page_view', 1, { pageViewId: 'p1', visitorId: 'v1' }),
        ev('page_view', 2, { pageViewId: 'p1', visitorId: 'v1' }),
        ev('page_view', 3, { pageViewId: 'p2', visitorId: 'v1' }),
        ev('page_view', 4, { pageViewId: 'p3', visitorId: 'v2' }),
      ]);
      expect(r).toMatchObject({
        loadCount: 4,
        pageViewCount: 3,
        persistentUniqueVisitorCount: 2,
        ephemeralPageViewCount: 0,
        uniqueVisitorCount: 2,
        loadsPerUniqueVisitor: 2,
        visitorCountMode: 'identified',
        openObserved: true,
        stage: 'opened',
        firstOpenedAt: iso(1),
        lastOpenedAt: iso(4),
        lastActivityType: 'page_view',
        lastActivityAt: iso(4),
      });
    });

    it('adds ephemeral page views (no visitorId) to uniqueVisitorCount and switches to estimated mode', () => {
      const r = rollup([
        ev('page_view', 1, { pageViewId: 'p1', visitorId: 'v1' }),
        ev('page_view', 2, { pageViewId: 'p2' }),
        ev('page_view', 3, { pageViewId: 'p2' }),
        ev('page_view', 4, { pageViewId: 'p3' }),
      ]);
      expect(r).toMatchObject({
        loadCount: 4,
        pageViewCount: 3,
        persistentUniqueVisitorCount: 1,
        ephemeralPageViewCount: 2,
        uniqueVisitorCount: 3,
        loadsPerUniqueVisitor: 4 / 3,
        visitorCountMode: 'estimated',
      });
    });

    it('a load without pageViewId and visitorId counts as a load only; loadsPerUniqueVisitor stays null', () => {
      const r = rollup([ev('page_view', 1), ev('page_view', 2)]);
      expect(r).toMatchObject({
        loadCount: 2,
        pageViewCount: 0,
        uniqueVisitorCount: 0,
        loadsPerUniqueVisitor: null,
        visitorCountMode: 'identified',
        stage: 'opened',
        openObserved: true,
      });
    });

    it('a load with a visitorId but no pageViewId counts the visitor, not a page view', () => {
      const r = rollup([ev('page_view', 1, { visitorId: 'v1' })]);
      expect(r).toMatchObject({
        loadCount: 1,
        pageViewCount: 0,
        persistentUniqueVisitorCount: 1,
        uniqueVisitorCount: 1,
        loadsPerUniqueVisitor: 1,
      });
    });

    it('an open is not a load', () => {
      const r = rollup([ev('open', 5)]);
      expect(r).toEqual({
        ...EMPTY,
        stage: 'opened',
        openObserved: true,
        firstOpenedAt: iso(5),
        lastOpenedAt: iso(5),
        lastActivityAt: iso(5),
        lastActivityType: 'open',
      });
    });

    it('human opens and loads both move first/lastOpenedAt', () => {
      const r = rollup([ev('page_view', 7, { pageViewId: 'p' }), ev('open', 3), ev('open', 5)]);
      expect(r).toMatchObject({ firstOpenedAt: iso(3), lastOpenedAt: iso(7) });
    });
  });

  describe('stage', () => {
    it('progresses not_opened → opened → started → engaged with the first*At times', () => {
      const events = [
        ev('open', 1),
        ev('session_started', 2, { sessionId: 's1' }),
        ev('session_engaged', 3, { sessionId: 's1' }),
      ];
      expect(rollup([])).toMatchObject({ stage: 'not_opened' });
      expect(rollup(events.slice(0, 1))).toMatchObject({ stage: 'opened', firstStartedAt: null, firstEngagedAt: null });
      expect(rollup(events.slice(0, 2))).toMatchObject({
        stage: 'started',
        firstStartedAt: iso(2),
        firstEngagedAt: null,
      });
      expect(rollup(events)).toMatchObject({
        stage: 'engaged',
        firstOpenedAt: iso(1),
        firstStartedAt: iso(2),
        firstEngagedAt: iso(3),
      });
    });

    it('never regresses: later opens, loads and ends keep engaged and keep the first times', () => {
      const r = rollup([
        ev('session_engaged', 3, { sessionId: 's1' }),
        ev('session_started', 2, { sessionId: 's1' }),
        ev('open', 1),
        ev('open', 9),
        ev('page_view', 10, { pageViewId: 'p' }),
        ev('session_ended', 11, { sessionId: 's1' }),
      ]);
      expect(r).toMatchObject({
        stage: 'engaged',
        firstOpenedAt: iso(1),
        lastOpenedAt: iso(10),
        firstStartedAt: iso(2),
        firstEngagedAt: iso(3),
        lastActivityType: 'session_ended',
      });
    });

    it('stageOf reads only the first times', () => {
      expect(stageOf({ firstOpenedAt: null, firstStartedAt: null, firstEngagedAt: null })).toBe('not_opened');
      expect(stageOf({ firstOpenedAt: T(1), firstStartedAt: null, firstEngagedAt: null })).toBe('opened');
      expect(stageOf({ firstOpenedAt: null, firstStartedAt: T(1), firstEngagedAt: null })).toBe('started');
      expect(stageOf({ firstOpenedAt: null, firstStartedAt: null, firstEngagedAt: T(1) })).toBe('engaged');
    });

    it('session_ended alone does not open the link', () => {
      expect(rollup([ev('session_ended', 4, { sessionId: 's1' })])).toMatchObject({
        stage: 'not_opened',
        openObserved: false,
        sessionCount: 1,
        lastActivityType: 'session_ended',
      });
    });
  });

  describe('sessions', () => {
    it('counts distinct sessionIds of all human events, and of started / engaged events', () => {
      const r = rollup([
        ev('open', 1, { sessionId: 's1' }),
        ev('session_started', 2, { sessionId: 's1' }),
        ev('session_started', 3, { sessionId: 's1' }),
        ev('session_started', 4, { sessionId: 's2' }),
        ev('session_engaged', 5, { sessionId: 's2' }),
        ev('page_view', 6, { sessionId: 's3', pageViewId: 'p' }),
        ev('session_started', 7),
        ev('session_started', 8, { sessionId: 's4', bot: true }),
      ]);
      expect(r).toMatchObject({
        sessionCount: 3,
        startedSessionCount: 2,
        engagedSessionCount: 1,
        firstStartedAt: iso(2),
        firstEngagedAt: iso(5),
      });
    });
  });

  describe('lead and meeting evidence', () => {
    it.each([
      ['lead_submitted', 'leadSubmitted', 'firstLeadSubmittedAt'],
      ['meeting_clicked', 'meetingClicked', 'firstMeetingClickedAt'],
      ['meeting_booked', 'meetingBooked', 'firstMeetingBookedAt'],
    ] as const)(
      '%s alone sets its flag and time and advances the stage to engaged at its time',
      (type, flag, field) => {
        const r = rollup([ev(type, 6)]);
        const others = {
          leadSubmitted: false,
          meetingClicked: false,
          meetingBooked: false,
          firstLeadSubmittedAt: null,
          firstMeetingClickedAt: null,
          firstMeetingBookedAt: null,
        };
        expect(r).toEqual({
          ...EMPTY,
          ...others,
          [flag]: true,
          [field]: iso(6),
          stage: 'engaged',
          firstOpenedAt: iso(6),
          firstStartedAt: iso(6),
          firstEngagedAt: iso(6),
          lastActivityAt: iso(6),
          lastActivityType: type,
        });
        // Evidence is not an observed open: openObserved and lastOpenedAt stay unset.
        expect(r.openObserved).toBe(false);
        expect(r.lastOpenedAt).toBeNull();
      },
    );

    it('keeps earlier observed times and fills only the missing or later ones (min of evidence and events)', () => {
      const r = rollup([ev('open', 1), ev('session_started', 3), ev('lead_submitted', 5), ev('session_engaged', 8)]);
      expect(r).toMatchObject({
        stage: 'engaged',
        firstOpenedAt: iso(1),
        firstStartedAt: iso(3),
        firstEngagedAt: iso(5),
        firstLeadSubmittedAt: iso(5),
        openObserved: true,
      });
    });

    it('evidence earlier than observed events moves the first times back to the evidence time', () => {
      const r = rollup([ev('open', 9), ev('session_started', 10), ev('session_engaged', 11), ev('meeting_booked', 4)]);
      expect(r).toMatchObject({
        firstOpenedAt: iso(4),
        lastOpenedAt: iso(9),
        firstStartedAt: iso(4),
        firstEngagedAt: iso(4),
        firstMeetingBookedAt: iso(4),
      });
    });

    it('conversion times are the earliest of each kind', () => {
      const r = rollup([
        ev('lead_submitted', 9),
        ev('lead_submitted', 7),
        ev('meeting_clicked', 12),
        ev('meeting_clicked', 11),
        ev('meeting_booked', 20),
        ev('meeting_booked', 15),
      ]);
      expect(r).toMatchObject({
        leadSubmitted: true,
        meetingClicked: true,
        meetingBooked: true,
        firstLeadSubmittedAt: iso(7),
        firstMeetingClickedAt: iso(11),
        firstMeetingBookedAt: iso(15),
        firstEngagedAt: iso(7),
        lastActivityAt: iso(20),
        lastActivityType: 'meeting_booked',
      });
    });
  });

  describe('internal traffic (docs/api.md §6.8)', () => {
    it('an internal open counts only as an internal open', () => {
      const r = rollup([ev('open', 1, { internal: true }), ev('open', 2, { internal: true })]);
      expect(r).toEqual({ ...EMPTY, internalOpens: 2 });
    });

    it('internal events of every other type count nowhere, and a bot that is internal counts as a bot', () => {
      const types: EventType[] = [
        'page_view',
        'session_started',
        'session_engaged',
        'lead_submitted',
        'meeting_booked',
      ];
      expect(
        rollup(types.map((type, i) => ev(type, i + 1, { internal: true, sessionId: 's1', visitorId: 'v1' }))),
      ).toEqual(EMPTY);
      const bot = rollup([ev('open', 1, { internal: true, bot: true })]);
      expect({ internalOpens: bot.internalOpens, botScannedOnly: bot.botScannedOnly }).toEqual({
        internalOpens: 0,
        botScannedOnly: true,
      });
    });

    it('leaves the external events as they are', () => {
      const external = [ev('open', 1), ev('session_started', 2, { sessionId: 's1' })];
      expect(rollup([...external, ev('session_engaged', 3, { sessionId: 's1', internal: true })])).toEqual({
        ...rollup(external),
        internalOpens: 0,
      });
    });
  });

  describe('bots', () => {
    it('a bot open only marks botScannedOnly', () => {
      const r = rollup([ev('open', 1, { bot: true }), ev('open', 2, { bot: true })]);
      expect(r).toEqual({ ...EMPTY, botScannedOnly: true });
      expect(storedFormOf(statsOf([ev('open', 1, { bot: true }), ev('open', 2, { bot: true })])).botOpenCount).toBe(2);
    });

    it('bot events of every other type count nowhere', () => {
      const types: EventType[] = [
        'page_view',
        'session_started',
        'session_engaged',
        'session_ended',
        'lead_submitted',
        'meeting_clicked',
        'meeting_booked',
      ];
      const r = rollup(
        types.map((type, i) =>
          ev(type, i + 1, { bot: true, pageViewId: `p${i}`, visitorId: `v${i}`, sessionId: `s${i}` }),
        ),
      );
      expect(r).toMatchObject({ ...EMPTY, botScannedOnly: r.botScannedOnly });
      expect(r.stage).toBe('not_opened');
    });

    it('a human open or load alongside bot opens clears botScannedOnly', () => {
      expect(rollup([ev('open', 1, { bot: true }), ev('open', 2)])).toMatchObject({
        botScannedOnly: false,
        openObserved: true,
        firstOpenedAt: iso(2),
      });
      expect(rollup([ev('open', 1, { bot: true }), ev('page_view', 2, { pageViewId: 'p' })])).toMatchObject({
        botScannedOnly: false,
        openObserved: true,
        loadCount: 1,
      });
    });

    it('bot opens do not hide lead evidence but evidence is not an observed open', () => {
      expect(rollup([ev('open', 1, { bot: true }), ev('lead_submitted', 2)])).toMatchObject({
        stage: 'engaged',
        openObserved: false,
        botScannedOnly: true,
        leadSubmitted: true,
      });
    });

    it('bot opens count by their reason; other bot events and reasonless (older) bot opens count in no reason', () => {
      const r = rollup([
        ev('open', 1, { bot: true, botReason: 'head_request' }),
        ev('open', 2, { bot: true, botReason: 'prefetch' }),
        ev('open', 3, { bot: true, botReason: 'prefetch' }),
        ev('open', 4, { bot: true, botReason: 'scanner' }),
        ev('open', 5, { bot: true, botReason: 'user_agent' }),
        ev('open', 6, { bot: true, botReason: null }),
        ev('page_view', 7, { bot: true, botReason: 'user_agent', pageViewId: 'p' }),
      ]);
      expect(r.botOpens).toEqual({ user_agent: 1, prefetch: 2, head_request: 1, scanner: 1 });
      expect(r.botScannedOnly).toBe(true);
    });

    it('bot events never become the last activity', () => {
      expect(rollup([ev('open', 1), ev('session_started', 5, { bot: true })])).toMatchObject({
        lastActivityAt: iso(1),
        lastActivityType: 'open',
      });
    });
  });

  describe('isBotRequest', () => {
    const CHROME =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
    it('a browser GET is human', () => expect(isBotRequest(CHROME, 'GET')).toBe(false));
    it('HEAD is a bot even with a browser User-Agent', () => expect(isBotRequest(CHROME, 'HEAD')).toBe(true));
    it.each([undefined, null, '', '   '])('a missing or empty User-Agent (%p) is a bot', (ua) =>
      expect(isBotRequest(ua)).toBe(true),
    );
    it.each([
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'curl/8.4.0',
      `${CHROME} Proofpoint`,
      'Mimecast URL Protect',
      'Barracuda Sentinel (EE)',
    ])('%s is a bot', (ua) => expect(isBotRequest(ua)).toBe(true));
  });

  describe('botReasonOf', () => {
    const CHROME =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
    it('a browser GET without prefetch headers is human', () =>
      expect(botReasonOf({ userAgent: CHROME, method: 'GET', headers: { accept: 'text/html' } })).toBeNull());
    it('HEAD comes first, whatever else', () =>
      expect(botReasonOf({ userAgent: 'Mimecast', method: 'HEAD', headers: { 'sec-purpose': 'prefetch' } })).toBe(
        'head_request',
      ));
    it.each([
      ['sec-purpose', 'prefetch'],
      ['sec-purpose', 'prefetch;prerender'],
      ['purpose', 'prefetch'],
      ['x-moz', 'prefetch'],
      ['purpose', ['other', 'Prefetch']],
    ])('%s: %p is a prefetch', (name, value) =>
      expect(botReasonOf({ userAgent: CHROME, headers: { [name]: value } })).toBe('prefetch'),
    );
    it('another purpose is not', () =>
      expect(
        botReasonOf({ userAgent: CHROME, headers: { 'sec-purpose': 'prerender', 'x-purpose': 'prefetch' } }),
      ).toBeNull());
    it.each([`${CHROME} Proofpoint`, 'Mimecast URL Protect', 'Barracuda Sentinel (EE)', 'Microsoft SafeLinks'])(
      '%s is a scanner',
      (ua) => expect(botReasonOf({ userAgent: ua })).toBe('scanner'),
    );
    it.each([
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'curl/8.4.0',
      '',
      '   ',
      undefined,
    ])('%p is a bot user agent', (ua) => expect(botReasonOf({ userAgent: ua })).toBe('user_agent'));
  });

  describe('duplicates', () => {
    it('a repeated eventId is counted once (the first occurrence)', () => {
      const a = ev('page_view', 1, { pageViewId: 'p1' });
      const r = rollup([a, a, { ...a, occurredAt: T(9), pageViewId: 'p2' }]);
      expect(r).toMatchObject({ loadCount: 1, pageViewCount: 1, lastOpenedAt: iso(1) });
    });
  });

  describe('last activity', () => {
    it('is the latest human event of any type', () => {
      expect(rollup([ev('session_ended', 9), ev('open', 2), ev('lead_submitted', 4)])).toMatchObject({
        lastActivityAt: iso(9),
        lastActivityType: 'session_ended',
      });
    });

    it('at equal occurredAt goes to the greater eventId whatever the order', () => {
      const a = { ...ev('open', 5), eventId: 'evt-a' };
      const b = { ...ev('session_started', 5), eventId: 'evt-b' };
      expect(rollup([a, b]).lastActivityType).toBe('session_started');
      expect(rollup([b, a]).lastActivityType).toBe('session_started');
    });

    it('compares eventIds in byte order, not locale order ("a" > "B")', () => {
      const lower = { ...ev('open', 5), eventId: 'a' };
      const upper = { ...ev('lead_submitted', 5), eventId: 'B' };
      expect(rollup([lower, upper]).lastActivityType).toBe('open');
      expect(rollup([upper, lower]).lastActivityType).toBe('open');
    });

    it('compares eventIds in UTF-8 byte order beyond the BMP too (U+10000 > U+FFFF), as the database does', () => {
      const astral = { at: T(5), type: 'open' as const, eventId: 'x\u{10000}' };
      const bmp = { at: T(5), type: 'lead_submitted' as const, eventId: 'x\uFFFF' };
      // UTF-8: F0 90 80 80 > EF BF BF; the stored merge compares with COLLATE "C" (bytes).
      expect(isLaterActivity(astral, bmp)).toBe(true);
      expect(isLaterActivity(bmp, astral)).toBe(false);
    });

    it('isLaterActivity: a later time wins regardless of eventId; equal activity is not later', () => {
      const early = { at: T(1), type: 'open' as const, eventId: 'z' };
      const late = { at: T(2), type: 'open' as const, eventId: 'a' };
      expect(isLaterActivity(late, early)).toBe(true);
      expect(isLaterActivity(early, late)).toBe(false);
      expect(isLaterActivity(early, early)).toBe(false);
      expect(isLaterActivity(early, null)).toBe(true);
    });
  });

  describe('a scripted link', () => {
    it('gives every field exactly', () => {
      const r = rollup([
        ev('open', 0, { bot: true }),
        ev('open', 1),
        ev('page_view', 2, { pageViewId: 'p1', visitorId: 'v1', sessionId: 's1' }),
        ev('page_view', 3, { pageViewId: 'p1', visitorId: 'v1', sessionId: 's1' }),
        ev('page_view', 4, { pageViewId: 'p2', sessionId: 's2' }),
        ev('page_view', 5, { pageViewId: 'p3', visitorId: 'v2', sessionId: 's2' }),
        ev('session_started', 6, { sessionId: 's1' }),
        ev('session_started', 7, { sessionId: 's2' }),
        ev('session_engaged', 8, { sessionId: 's2' }),
        ev('meeting_clicked', 9, { sessionId: 's2' }),
        ev('session_ended', 10, { sessionId: 's1' }),
      ]);
      expect(r).toEqual({
        stage: 'engaged',
        openObserved: true,
        botScannedOnly: false,
        botOpens: EMPTY.botOpens,
        internalOpens: 0,
        pageViewCount: 3,
        loadCount: 4,
        uniqueVisitorCount: 3,
        persistentUniqueVisitorCount: 2,
        ephemeralPageViewCount: 1,
        loadsPerUniqueVisitor: 4 / 3,
        visitorCountMode: 'estimated',
        firstOpenedAt: iso(1),
        lastOpenedAt: iso(5),
        sessionCount: 2,
        startedSessionCount: 2,
        engagedSessionCount: 1,
        leadSubmitted: false,
        meetingClicked: true,
        meetingBooked: false,
        lastActivityAt: iso(10),
        lastActivityType: 'session_ended',
        firstStartedAt: iso(6),
        firstEngagedAt: iso(8),
        firstLeadSubmittedAt: null,
        firstMeetingClickedAt: iso(9),
        firstMeetingBookedAt: null,
      });
    });
  });

  describe('session lifecycle (lifecycleOf)', () => {
    it('lists one event per kind at its earliest time, oldest first; opens and loads are both "opened"', () => {
      const l = lifecycleOf([
        { type: 'page_view', at: T(3) },
        { type: 'open', at: T(2) },
        { type: 'session_started', at: T(4) },
        { type: 'session_engaged', at: T(6) },
        { type: 'session_ended', at: T(9) },
        { type: 'meeting_clicked', at: T(7) },
        { type: 'meeting_booked', at: T(8) },
        { type: 'lead_submitted', at: T(5) },
      ]);
      expect(l).toEqual({
        stage: 'engaged',
        events: [
          { eventType: 'opened', observedAt: iso(2) },
          { eventType: 'started', observedAt: iso(4) },
          { eventType: 'lead_submitted', observedAt: iso(5) },
          { eventType: 'engaged', observedAt: iso(6) },
          { eventType: 'meeting_clicked', observedAt: iso(7) },
          { eventType: 'meeting_booked', observedAt: iso(8) },
          { eventType: 'ended', observedAt: iso(9) },
        ],
      });
    });

    it('lead evidence alone gives stage engaged and lists only the observed lead', () => {
      expect(lifecycleOf([{ type: 'lead_submitted', at: T(5) }])).toEqual({
        stage: 'engaged',
        events: [{ eventType: 'lead_submitted', observedAt: iso(5) }],
      });
    });

    it('stage follows open → started', () => {
      expect(lifecycleOf([{ type: 'open', at: T(1) }]).stage).toBe('opened');
      expect(
        lifecycleOf([
          { type: 'open', at: T(1) },
          { type: 'session_started', at: T(2) },
        ]).stage,
      ).toBe('started');
      expect(lifecycleOf([]).stage).toBe('not_opened');
    });
  });
});

// -------------------------------------------------------------------------------------------------
// Properties
// -------------------------------------------------------------------------------------------------

const TYPES: EventType[] = [
  'open',
  'page_view',
  'session_started',
  'session_engaged',
  'session_ended',
  'lead_submitted',
  'meeting_clicked',
  'meeting_booked',
];
/** Events with ids from a small pool: some ids repeat as identical copies (duplicates). */
const eventSet = fc
  .array(
    fc.record({
      type: fc.constantFrom(...TYPES),
      minute: fc.integer({ min: 0, max: 6 }),
      pageViewId: fc.constantFrom(null, 'p1', 'p2', 'p3'),
      visitorId: fc.constantFrom(null, 'v1', 'v2'),
      sessionId: fc.constantFrom(null, 's1', 's2', 's3'),
      bot: fc.boolean(),
      botReason: fc.constantFrom(...BOT_REASONS),
    }),
    { maxLength: 25 },
  )
  .chain((drafts) =>
    fc
      .tuple(
        fc.constant(
          drafts.map((d, i): EngagementEvent => ({
            eventId: `${'aAbB'[i % 4]}${i}`,
            type: d.type,
            occurredAt: T(d.minute),
            pageViewId: d.pageViewId,
            visitorId: d.visitorId,
            sessionId: d.sessionId,
            bot: d.bot,
            botReason: d.bot ? d.botReason : null,
          })),
        ),
        fc.array(fc.nat(), { maxLength: 8 }),
      )
      .map(([events, dupes]) =>
        events.length === 0 ? events : [...events, ...dupes.map((n) => ({ ...events[n % events.length] }))],
      ),
  );

const shuffled = <T>(items: T[]) => fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });

/** Splits into consecutive batches at the given cut points. */
function split<T>(items: T[], cuts: number[]): T[][] {
  const points = [...new Set(cuts.map((c) => c % (items.length + 1)))].sort((a, b) => a - b);
  const batches: T[][] = [];
  let from = 0;
  for (const p of [...points, items.length]) {
    batches.push(items.slice(from, p));
    from = p;
  }
  return batches;
}

/**
 * The service's merge modelled without statsOf over the whole set: events already seen (by eventId)
 * are dropped, each batch's statistics are built alone, then merged into the running statistics by
 * adding counters, uniting sets, and taking minima / maxima / the later activity.
 */
function mergeInto(total: LinkStats, batch: LinkStats): void {
  total.openObserved ||= batch.openObserved;
  total.botOpenCount += batch.botOpenCount;
  for (const reason of BOT_REASONS) total.botOpens[reason] += batch.botOpens[reason];
  total.internalOpenCount += batch.internalOpenCount;
  total.loadCount += batch.loadCount;
  for (const kind of DISTINCT_KINDS) for (const v of batch.distinct[kind]) total.distinct[kind].add(v);
  const min = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : b < a ? b : a);
  const max = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : b > a ? b : a);
  total.firstOpenedAt = min(total.firstOpenedAt, batch.firstOpenedAt);
  total.lastOpenedAt = max(total.lastOpenedAt, batch.lastOpenedAt);
  total.firstStartedAt = min(total.firstStartedAt, batch.firstStartedAt);
  total.firstEngagedAt = min(total.firstEngagedAt, batch.firstEngagedAt);
  total.firstLeadSubmittedAt = min(total.firstLeadSubmittedAt, batch.firstLeadSubmittedAt);
  total.firstMeetingClickedAt = min(total.firstMeetingClickedAt, batch.firstMeetingClickedAt);
  total.firstMeetingBookedAt = min(total.firstMeetingBookedAt, batch.firstMeetingBookedAt);
  if (batch.lastActivity && isLaterActivity(batch.lastActivity, total.lastActivity))
    total.lastActivity = batch.lastActivity;
}

function mergedOverBatches(batches: EngagementEvent[][]) {
  const seen = new Set<string>();
  const total = emptyStats();
  for (const batch of batches) {
    const fresh = batch.filter((e) => !seen.has(e.eventId));
    fresh.forEach((e) => seen.add(e.eventId));
    mergeInto(total, statsOf(fresh));
  }
  return engagementOf(storedFormOf(total));
}

const RANK = { not_opened: 0, opened: 1, started: 2, engaged: 3 } as const;
const COUNTS = [
  'pageViewCount',
  'loadCount',
  'uniqueVisitorCount',
  'persistentUniqueVisitorCount',
  'ephemeralPageViewCount',
  'sessionCount',
  'startedSessionCount',
  'engagedSessionCount',
] as const;
const FIRSTS = [
  'firstOpenedAt',
  'firstStartedAt',
  'firstEngagedAt',
  'firstLeadSubmittedAt',
  'firstMeetingClickedAt',
  'firstMeetingBookedAt',
] as const;
const FLAGS = ['openObserved', 'leadSubmitted', 'meetingClicked', 'meetingBooked'] as const;

describe('engagement rollup properties', () => {
  it('is the same for every permutation of the same events (with duplicates)', () => {
    fc.assert(
      fc.property(
        eventSet.chain((events) => fc.tuple(fc.constant(events), shuffled(events))),
        ([events, permuted]) => {
          // Duplicates are identical copies, so the first occurrence is the same event whatever the order.
          expect(rollup(permuted)).toEqual(rollup(events));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is the same for any split into batches merged the way the service merges', () => {
    fc.assert(
      fc.property(
        eventSet.chain((events) =>
          fc.tuple(fc.constant(events), shuffled(events), fc.array(fc.nat(), { maxLength: 6 })),
        ),
        ([events, permuted, cuts]) => {
          expect(mergedOverBatches(split(permuted, cuts))).toEqual(rollup(events));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never moves backwards as events arrive: counts, stage, first times and flags', () => {
    fc.assert(
      fc.property(eventSet, (events) => {
        let previous = rollup([]);
        for (let i = 1; i <= events.length; i++) {
          const next = rollup(events.slice(0, i));
          for (const key of COUNTS) expect(next[key]).toBeGreaterThanOrEqual(previous[key]);
          expect(RANK[next.stage]).toBeGreaterThanOrEqual(RANK[previous.stage]);
          for (const key of FIRSTS)
            if (previous[key] !== null)
              expect(Date.parse(next[key] as string)).toBeLessThanOrEqual(Date.parse(previous[key] as string));
          for (const key of FLAGS) if (previous[key]) expect(next[key]).toBe(true);
          if (previous.lastActivityAt !== null)
            expect(Date.parse(next.lastActivityAt as string)).toBeGreaterThanOrEqual(
              Date.parse(previous.lastActivityAt),
            );
          previous = next;
        }
      }),
      { numRuns: 200 },
    );
  });

  it('addEvent one by one equals statsOf over the deduplicated set', () => {
    fc.assert(
      fc.property(eventSet, (events) => {
        const stats = emptyStats();
        const seen = new Set<string>();
        for (const e of events) if (!seen.has(e.eventId) && seen.add(e.eventId)) addEvent(stats, e);
        expect(engagementOf(storedFormOf(stats))).toEqual(rollup(events));
      }),
      { numRuns: 100 },
    );
  });

  it('botScannedOnly holds exactly when bot opens were seen and no human open or load', () => {
    fc.assert(
      fc.property(eventSet, (events) => {
        const seen = new Set<string>();
        const unique = events.filter((e) => !seen.has(e.eventId) && seen.add(e.eventId));
        const botOpen = unique.some((e) => e.bot && e.type === 'open');
        const humanOpen = unique.some((e) => !e.bot && (e.type === 'open' || e.type === 'page_view'));
        const r = rollup(events);
        expect(r.botScannedOnly).toBe(botOpen && !humanOpen);
        expect(r.openObserved).toBe(humanOpen);
        expect(r.loadCount).toBe(unique.filter((e) => !e.bot && e.type === 'page_view').length);
      }),
      { numRuns: 200 },
    );
  });
});
