import { campaignFigureChanges, type LinkFigures } from './campaign-figures';

const at = (hour: number) => new Date(Date.UTC(2026, 2, 1, hour));
const A = '0195a000-0000-7000-8000-00000000000a';
const B = '0195a000-0000-7000-8000-00000000000b';

const link = (overrides: Partial<LinkFigures> = {}): LinkFigures => ({
  id: 'L1',
  campaign_id: A,
  active: true,
  stage: 'not_opened',
  first_lead_submitted_at: null,
  first_meeting_clicked_at: null,
  first_meeting_booked_at: null,
  bot_open_count: 0,
  open_observed: false,
  page_view_count: 0,
  load_count: 0,
  persistent_visitor_count: 0,
  ephemeral_page_view_count: 0,
  session_count: 0,
  started_session_count: 0,
  engaged_session_count: 0,
  first_opened_at: null,
  last_opened_at: null,
  last_activity_at: null,
  ...overrides,
});

const opened = (overrides: Partial<LinkFigures> = {}) =>
  link({
    stage: 'engaged',
    open_observed: true,
    page_view_count: 3,
    session_count: 2,
    first_opened_at: at(1),
    last_opened_at: at(5),
    last_activity_at: at(6),
    ...overrides,
  });

describe('campaignFigureChanges', () => {
  it('a created link adds its counters and times to its campaign; an unfiled one to none', () => {
    const [change, ...rest] = campaignFigureChanges([
      { before: null, after: opened() },
      { before: null, after: link({ id: 'L2', campaign_id: null }) },
    ]);

    expect(rest).toEqual([]);
    expect(change).toMatchObject({
      campaignId: A,
      counters: { links: 1, active_links: 1, opened: 1, started: 1, engaged: 1, page_views: 3, sessions: 2 },
      times: { first_opened_at: at(1), last_opened_at: at(5), last_activity_at: at(6) },
      recount: false,
    });
  });

  it('a link whose figures did not change gives nothing (equal times compare by instant)', () => {
    const before = opened();
    const after = opened({ first_opened_at: new Date(at(1).getTime()) });

    expect(campaignFigureChanges([{ before, after }])).toEqual([]);
  });

  it('a fold of later events adds the difference and merges times without a recount', () => {
    const [change] = campaignFigureChanges([
      { before: opened(), after: opened({ page_view_count: 5, last_activity_at: at(9) }) },
    ]);

    expect(change.counters).toMatchObject({ links: 0, page_views: 2, opened: 0 });
    expect(change.times.last_activity_at).toEqual(at(9));
    expect(change.recount).toBe(false);
  });

  it('a move takes the link out of one campaign, recounting its times, and adds it to the other, in campaign order', () => {
    const changes = campaignFigureChanges([{ before: opened({ campaign_id: B }), after: opened({ campaign_id: A }) }]);

    expect(changes.map((c) => [c.campaignId, c.counters.links, c.counters.page_views, c.recount])).toEqual([
      [A, 1, 3, false],
      [B, -1, -3, true],
    ]);
    expect(changes[1].times).toEqual({ first_opened_at: null, last_opened_at: null, last_activity_at: null });
  });

  it('a link without times leaves its campaign without a recount', () => {
    const [change] = campaignFigureChanges([{ before: link(), after: link({ campaign_id: null }) }]);

    expect(change).toMatchObject({ campaignId: A, counters: { links: -1, active_links: -1 }, recount: false });
  });

  it('a reset (times back to null) and a deletion recount; a deactivation does not', () => {
    const reset = campaignFigureChanges([{ before: opened(), after: link() }]);
    const deleted = campaignFigureChanges([{ before: opened(), after: null }]);
    const deactivated = campaignFigureChanges([{ before: opened(), after: opened({ active: false }) }]);

    expect(reset[0]).toMatchObject({ counters: { links: 0, engaged: -1, page_views: -3 }, recount: true });
    expect(deleted[0]).toMatchObject({ counters: { links: -1, engaged: -1 }, recount: true });
    expect(deactivated[0]).toMatchObject({ counters: { links: 0, active_links: -1 }, recount: false });
  });

  it('the merged times of several links are the earliest first and the latest last; bot-only links count apart', () => {
    const [change] = campaignFigureChanges([
      { before: null, after: opened({ id: 'L1', first_opened_at: at(3), last_opened_at: at(4) }) },
      { before: null, after: opened({ id: 'L2', first_opened_at: at(2), last_opened_at: at(8) }) },
      { before: null, after: link({ id: 'L3', bot_open_count: 2 }) },
    ]);

    expect(change.times).toMatchObject({ first_opened_at: at(2), last_opened_at: at(8) });
    expect(change.counters).toMatchObject({ links: 3, bot_scanned_only: 1, opened: 2 });
  });
});
