import type { EventHour } from './engagement.repository';
import type { AnalyticsGrouping } from './rules/analytics';

/**
 * The analytics facets (docs/api.md §6.9): event counts per hour and per UTC day of one dimension's
 * value, or of the whole organization (`all`), whatever the other dimensions. Every grouping is a
 * facet but `link` (the link's own hourly aggregates serve it) and `time`.
 */
export type Facet = 'all' | Exclude<AnalyticsGrouping, 'time' | 'link'>;

/** Where a link's events are filed: its campaign and account domain as they are now. */
export interface Filing {
  campaignId: string | null;
  accountDomain: string | null;
}

/** Each facet's value for an hourly aggregate of a link filed so. */
const FACET_VALUES: Record<Facet, (hour: EventHour, filing: Filing) => string | null> = {
  all: () => null,
  country: (hour) => hour.country,
  device_type: (hour) => hour.deviceType,
  browser: (hour) => hour.browser,
  os: (hour) => hour.os,
  referrer_domain: (hour) => hour.referrerDomain,
  utm_source: (hour) => hour.utmSource,
  utm_medium: (hour) => hour.utmMedium,
  utm_campaign: (hour) => hour.utmCampaign,
  campaign: (_, filing) => filing.campaignId,
  account_domain: (_, filing) => filing.accountDomain,
};

export const FACET_NAMES = Object.keys(FACET_VALUES) as Facet[];

/** One facet row's key and how many events it gains. */
export interface FacetCount {
  facet: Facet;
  hour: Date;
  value: string | null;
  type: string;
  bot: boolean;
  internal: boolean;
  events: number;
}

const UNFILED: Filing = { campaignId: null, accountDomain: null };

/** The facet rows of hourly aggregates, one per key (a link missing from `filing` is unfiled). */
export function facetCountsOf(hours: readonly EventHour[], filing: ReadonlyMap<string, Filing>): FacetCount[] {
  const counts = new Map<string, FacetCount>();
  for (const hour of hours) {
    const link = filing.get(hour.linkId) ?? UNFILED;
    for (const facet of FACET_NAMES) {
      const value = FACET_VALUES[facet](hour, link);
      const key = JSON.stringify([facet, hour.hour.getTime(), value, hour.type, hour.bot, hour.internal]);
      const found = counts.get(key);
      if (found) found.events += hour.events;
      else
        counts.set(key, {
          facet,
          hour: hour.hour,
          value,
          type: hour.type,
          bot: hour.bot,
          internal: hour.internal,
          events: hour.events,
        });
    }
  }
  return [...counts.values()];
}

/**
 * One statement: the common table expressions `ctes` (the last one named `facets`: facet, hour,
 * value, type, bot, internal, events; one row per key) and the facets' addition to the hourly and
 * daily facets of organization $1. Rows are written in key order, whoever writes (the fold, a
 * refile), so two writers never wait for each other in a cycle.
 */
export function addFacetsSql(ctes: string): string {
  const key = 'facet, value, type, bot, internal';
  return `WITH ${ctes},
    added_hours AS (
      INSERT INTO event_facet_hours AS x (organization_id, hour, ${key}, events)
      SELECT $1, hour, ${key}, events FROM facets ORDER BY facet, value, hour, type, bot, internal
      ON CONFLICT ON CONSTRAINT event_facet_hours_key DO UPDATE SET events = x.events + EXCLUDED.events)
    INSERT INTO event_facet_days AS x (organization_id, day, ${key}, events)
    SELECT $1, date_trunc('day', hour, 'UTC') AS day, ${key}, sum(events)::int FROM facets
     GROUP BY facet, day, value, type, bot, internal ORDER BY facet, day, value, type, bot, internal
    ON CONFLICT ON CONSTRAINT event_facet_days_key DO UPDATE SET events = x.events + EXCLUDED.events`;
}
