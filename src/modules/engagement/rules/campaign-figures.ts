/** A link's columns its campaign's figures depend on (docs/api.md §2.10), named as the custom_links row names them. */
export interface LinkFigures {
  id: string;
  campaign_id: string | null;
  active: boolean;
  stage: string;
  first_lead_submitted_at: Date | null;
  first_meeting_clicked_at: Date | null;
  first_meeting_booked_at: Date | null;
  bot_open_count: number;
  open_observed: boolean;
  page_view_count: number;
  load_count: number;
  persistent_visitor_count: number;
  ephemeral_page_view_count: number;
  session_count: number;
  started_session_count: number;
  engaged_session_count: number;
  first_opened_at: Date | null;
  last_opened_at: Date | null;
  last_activity_at: Date | null;
}

/** The columns of LinkFigures, for the links' owner to read and return them. */
export const LINK_FIGURE_COLUMNS = [
  'id',
  'campaign_id',
  'active',
  'stage',
  'first_lead_submitted_at',
  'first_meeting_clicked_at',
  'first_meeting_booked_at',
  'bot_open_count',
  'open_observed',
  'page_view_count',
  'load_count',
  'persistent_visitor_count',
  'ephemeral_page_view_count',
  'session_count',
  'started_session_count',
  'engaged_session_count',
  'first_opened_at',
  'last_opened_at',
  'last_activity_at',
] as const satisfies readonly (keyof LinkFigures)[];

/** One link written: as it was (null: created) and as it is (null: deleted). */
export interface LinkFiguresChange {
  before: LinkFigures | null;
  after: LinkFigures | null;
}

/** Each campaign_engagement counter and what one link adds to it. */
const CONTRIBUTION = {
  links: () => 1,
  active_links: (l: LinkFigures) => Number(l.active),
  opened: (l: LinkFigures) => Number(l.stage !== 'not_opened'),
  started: (l: LinkFigures) => Number(l.stage === 'started' || l.stage === 'engaged'),
  engaged: (l: LinkFigures) => Number(l.stage === 'engaged'),
  lead_submitted: (l: LinkFigures) => Number(l.first_lead_submitted_at !== null),
  meeting_clicked: (l: LinkFigures) => Number(l.first_meeting_clicked_at !== null),
  meeting_booked: (l: LinkFigures) => Number(l.first_meeting_booked_at !== null),
  bot_scanned_only: (l: LinkFigures) => Number(l.bot_open_count > 0 && !l.open_observed),
  page_views: (l: LinkFigures) => l.page_view_count,
  loads: (l: LinkFigures) => l.load_count,
  persistent_visitors: (l: LinkFigures) => l.persistent_visitor_count,
  ephemeral_page_views: (l: LinkFigures) => l.ephemeral_page_view_count,
  sessions: (l: LinkFigures) => l.session_count,
  started_sessions: (l: LinkFigures) => l.started_session_count,
  engaged_sessions: (l: LinkFigures) => l.engaged_session_count,
} satisfies Record<string, (link: LinkFigures) => number>;
export type CampaignCounter = keyof typeof CONTRIBUTION;

/** A campaign's times: the earliest or latest of its links' (campaign_engagement keeps them by LEAST/GREATEST). */
export const CAMPAIGN_TIMES = {
  first_opened_at: 'earliest',
  last_opened_at: 'latest',
  last_activity_at: 'latest',
} as const;
export type CampaignTime = keyof typeof CAMPAIGN_TIMES;

/** What a set of link writes does to one campaign's figures. */
export interface CampaignFiguresChange {
  campaignId: string;
  /** Added to the stored counters. */
  counters: Record<CampaignCounter, number>;
  /** Merged into the stored times (the earliest or latest wins; null changes nothing). */
  times: Record<CampaignTime, Date | null>;
  /** A link took one of the campaign's times away (it left, or its time went back): recount them from its links. */
  recount: boolean;
}

export const CAMPAIGN_COUNTERS = Object.keys(CONTRIBUTION) as CampaignCounter[];
export const CAMPAIGN_TIME_COLUMNS = Object.keys(CAMPAIGN_TIMES) as CampaignTime[];
const COUNTERS = CAMPAIGN_COUNTERS;
const TIMES = CAMPAIGN_TIME_COLUMNS;

const same = (a: LinkFigures, b: LinkFigures) =>
  LINK_FIGURE_COLUMNS.every((column) => {
    const [x, y] = [a[column], b[column]];
    return x instanceof Date && y instanceof Date ? x.getTime() === y.getTime() : x === y;
  });

/** Whether `time` of the link as it was may have been its campaign's, and the campaign no longer has it from this link. */
function lost(time: CampaignTime, before: LinkFigures, after: LinkFigures | null): boolean {
  const was = before[time];
  if (was === null) return false;
  const now = after?.campaign_id === before.campaign_id ? after[time] : null;
  if (now === null) return true;
  return CAMPAIGN_TIMES[time] === 'earliest' ? now > was : now < was;
}

/**
 * The campaigns' figures after links were written, as changes to what campaign_engagement holds
 * (what the removed custom_links trigger computed, migration LinkDerivedWrites): a link counts in the
 * campaign it is filed in, so a write takes the link as it was out of its campaign and adds the link
 * as it is to its own. Links whose figures did not change give nothing. In campaign order, the order
 * every writer locks campaign rows in.
 */
export function campaignFigureChanges(changes: LinkFiguresChange[]): CampaignFiguresChange[] {
  const byCampaign = new Map<string, CampaignFiguresChange>();
  const of = (campaignId: string) => {
    let change = byCampaign.get(campaignId);
    if (!change) {
      change = {
        campaignId,
        counters: Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<CampaignCounter, number>,
        times: Object.fromEntries(TIMES.map((t) => [t, null])) as Record<CampaignTime, Date | null>,
        recount: false,
      };
      byCampaign.set(campaignId, change);
    }
    return change;
  };
  for (const { before, after } of changes) {
    if (before && after && same(before, after)) continue;
    if (before?.campaign_id) {
      const change = of(before.campaign_id);
      for (const counter of COUNTERS) change.counters[counter] -= CONTRIBUTION[counter](before);
      if (TIMES.some((time) => lost(time, before, after))) change.recount = true;
    }
    if (after?.campaign_id) {
      const change = of(after.campaign_id);
      for (const counter of COUNTERS) change.counters[counter] += CONTRIBUTION[counter](after);
      for (const time of TIMES) change.times[time] = merged(time, change.times[time], after[time]);
    }
  }
  return [...byCampaign.values()]
    .filter((c) => c.recount || COUNTERS.some((k) => c.counters[k] !== 0) || TIMES.some((t) => c.times[t] !== null))
    .sort((a, b) => (a.campaignId < b.campaignId ? -1 : a.campaignId > b.campaignId ? 1 : 0));
}

function merged(time: CampaignTime, a: Date | null, b: Date | null): Date | null {
  if (a === null || b === null) return a ?? b;
  return (CAMPAIGN_TIMES[time] === 'earliest') === a < b ? a : b;
}
