import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A facet row's key after its organization and period: the dimension, its value, and what the events were. */
const FACET_KEY = 'facet, value, type, bot, internal';

/** Each facet and its value in an hourly aggregate `h` of a link `l` (as the fold files them: docs/api.md §6.9). */
const FACET_VALUES = {
  all: 'NULL::text',
  country: 'h.country',
  device_type: 'h.device_type',
  browser: 'h.browser',
  os: 'h.os',
  referrer_domain: 'h.referrer_domain',
  utm_source: 'h.utm_source',
  utm_medium: 'h.utm_medium',
  utm_campaign: 'h.utm_campaign',
  campaign: 'l.campaign_id::text',
  account_domain: 'l.account_domain',
} as const;

export type AggregateFacet = keyof typeof FACET_VALUES;
export const AGGREGATE_FACETS = Object.keys(FACET_VALUES) as AggregateFacet[];

const ENGAGEMENT_TABLES = ['link_events', 'link_distinct_values', 'link_sessions'];
const LOG_TABLES = ['link_event_ids', 'link_event_batches', 'engagement_folds', 'link_event_hours'];
const FACET_TABLES = ['event_facet_hours', 'event_facet_days', 'event_facet_versions'];

const CASCADED = (tables: string[]) => `
  CREATE OR REPLACE FUNCTION engagement_rows_of_deleted_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${tables.map((table) => `DELETE FROM ${table} WHERE organization_id IN (SELECT id FROM old_rows);`).join('\n    ')}
    RETURN NULL;
  END $$`;

/**
 * The facets of the hourly aggregates, of one organization (a parameter, e.g. `$1`) or of all: the
 * backfill here, and the benchmark dataset's after it writes its aggregates. One statement per
 * facet and period, so that a caller can run facets side by side (the benchmark's build does, on two
 * connections); the link is joined only for the facets it files.
 */
export function facetsFromHours(
  organization: string | null,
  facets: readonly AggregateFacet[] = AGGREGATE_FACETS,
): string[] {
  const ofOrganization = organization === null ? [] : [`h.organization_id = ${organization}`];
  const where = (conditions: string[]) => (conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`);
  const link = (facet: AggregateFacet) =>
    FACET_VALUES[facet].startsWith('l.')
      ? 'LEFT JOIN custom_links l ON l.organization_id = h.organization_id AND l.id = h.custom_link_id'
      : '';
  return facets.flatMap((facet) => [
    `INSERT INTO event_facet_hours (organization_id, hour, ${FACET_KEY}, events)
     SELECT h.organization_id, h.hour, '${facet}', ${FACET_VALUES[facet]}, h.type, h.bot, h.internal, sum(h.events)
       FROM link_event_hours h ${link(facet)}
      ${where(ofOrganization)}
      GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    `INSERT INTO event_facet_days (organization_id, day, ${FACET_KEY}, events)
     SELECT h.organization_id, date_trunc('day', h.hour, 'UTC'), ${FACET_KEY}, sum(h.events)
       FROM event_facet_hours h ${where([`h.facet = '${facet}'`, ...ofOrganization])} GROUP BY 1, 2, 3, 4, 5, 6, 7`,
  ]);
}

/**
 * Analytics facets (issue 33 point 3): the hourly aggregates per link and context hardly compress the
 * log, so a question over a month reads hundreds of thousands of them. A facet row counts the
 * events of one dimension's value (or of the whole organization: facet `all`) per hour, and per
 * UTC day, whatever the other dimensions: a question with one dimension (its grouping or its
 * filter) reads a few thousand rows.
 *
 * The `campaign` and `account_domain` facets file a link's events under its campaign and account
 * domain as they are now: the fold files new events so, and a link that moves is refiled with it
 * (custom-links calls engagement's LINK_FILING port in the same transaction). A refile leaves a row
 * at zero events rather than deleting it; a zero row adds nothing to any figure.
 *
 * event_facet_versions counts the writes of each organization's aggregates, so that an answer
 * computed from them can be kept until they change (docs/api.md §6.9).
 */
export class AnalyticsFacets1766800000000 implements MigrationInterface {
  name = 'AnalyticsFacets1766800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Keys lead with the period for the days (breakdowns read a range of days, every value) and with
    // the value for the hours (a filtered time series reads one value's hours); the hours also have
    // the period first for breakdowns' edges. Each index holds every column a question reads.
    for (const [table, period, key] of [
      ['event_facet_hours', 'hour', 'value, hour'],
      ['event_facet_days', 'day', 'day, value'],
    ] as const)
      await queryRunner.query(`
        CREATE TABLE ${table} (
          organization_id uuid NOT NULL,
          facet text NOT NULL CHECK (facet IN ('all', 'country', 'device_type', 'browser', 'os', 'referrer_domain', 'utm_source',
                                               'utm_medium', 'utm_campaign', 'campaign', 'account_domain')),
          ${period} timestamptz NOT NULL,
          value text,
          type varchar(32) NOT NULL,
          bot boolean NOT NULL,
          internal boolean NOT NULL,
          events integer NOT NULL,
          CONSTRAINT ${table}_key UNIQUE NULLS NOT DISTINCT (organization_id, facet, ${key}, type, bot, internal) INCLUDE (events))`);
    for (const statement of facetsFromHours(null)) await queryRunner.query(statement);
    // Every write of an organization's aggregates (a fold, a refile, a refold) counts up its version:
    // an answer computed at one version holds while it stands.
    await queryRunner.query(`
      CREATE TABLE event_facet_versions (
        organization_id uuid PRIMARY KEY,
        version bigint NOT NULL)`);
    await queryRunner.query(
      `CREATE INDEX event_facet_hours_period_idx ON event_facet_hours (organization_id, facet, hour) INCLUDE (value, type, bot, internal, events)`,
    );
    await queryRunner.query(CASCADED([...ENGAGEMENT_TABLES, ...LOG_TABLES, ...FACET_TABLES]));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(CASCADED([...ENGAGEMENT_TABLES, ...LOG_TABLES]));
    await queryRunner.query(`DROP TABLE ${FACET_TABLES.join(', ')}`);
  }
}
