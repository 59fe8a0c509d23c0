import { ANALYTICS_GROUPINGS, type AnalyticsGrouping } from './rules/analytics';

/**
 * The analytics facets (docs/api.md §6.9): event counts per hour and per UTC day of one dimension's
 * value, or of the whole organization (`all`), whatever the other dimensions. Every grouping is a
 * facet but `link` (the link's own hourly aggregates serve it) and `time`.
 */
export type Facet = 'all' | Exclude<AnalyticsGrouping, 'time' | 'link'>;

export const FACET_NAMES: readonly Facet[] = [
  'all',
  ...ANALYTICS_GROUPINGS.filter(
    (grouping): grouping is Exclude<Facet, 'all'> => grouping !== 'time' && grouping !== 'link',
  ),
];

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

/** Where a link's events are filed: its campaign and account domain as they are now. */
export interface Filing {
  campaignId: string | null;
  accountDomain: string | null;
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
