import type { AnalyticsGrouping } from './rules/analytics';

/**
 * The analytics facets (docs/api.md §6.9): event counts per hour and per UTC day of one dimension's
 * value, or of the whole organization (`all`), whatever the other dimensions. Every grouping is a
 * facet but `link` (the link's own hourly aggregates serve it) and `time`.
 */
export type Facet = 'all' | Exclude<AnalyticsGrouping, 'time' | 'link'>;

/**
 * Each facet's value, in SQL, for an hourly aggregate `v` (link_event_hours' columns) of a link
 * whose read model row is `d` (link_rollups): campaign and account domain as the link has them now.
 */
const FACET_VALUES: Record<Facet, string> = {
  all: 'NULL::text',
  country: 'v.country',
  device_type: 'v.device_type',
  browser: 'v.browser',
  os: 'v.os',
  referrer_domain: 'v.referrer_domain',
  utm_source: 'v.utm_source',
  utm_medium: 'v.utm_medium',
  utm_campaign: 'v.utm_campaign',
  campaign: 'd.campaign_id::text',
  account_domain: 'd.account_domain',
};

export const FACET_NAMES = Object.keys(FACET_VALUES) as Facet[];

/** `(VALUES ...) AS f(facet, value)`: one row per facet of the aggregate `v` and its link `d`. */
export const FACETS_OF_HOUR = `(VALUES ${Object.entries(FACET_VALUES)
  .map(([facet, value]) => `('${facet}', ${value})`)
  .join(', ')}) AS f(facet, value)`;

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
