import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The event columns both forms of link_events hold, in order. */
const EVENT_COLUMNS = `organization_id, event_id, custom_link_id, type, occurred_at, page_view_id, visitor_id, session_id, bot,
  received_at, bot_reason, country, device_type, browser, os, referrer_domain, utm_source, utm_medium, utm_campaign, utm_term,
  utm_content, internal_reason`;

const EVENT_COLUMN_TYPES = `
  event_id varchar(128) NOT NULL,
  custom_link_id uuid NOT NULL,
  type varchar(32) NOT NULL,
  occurred_at timestamptz NOT NULL,
  page_view_id varchar(128),
  visitor_id varchar(128),
  session_id uuid,
  bot boolean NOT NULL,
  bot_reason text CHECK (bot_reason IN ('user_agent', 'prefetch', 'head_request', 'scanner')),
  country text, device_type text, browser text, os text, referrer_domain text,
  utm_source text, utm_medium text, utm_campaign text, utm_term text, utm_content text,
  internal_reason text`;

/** The dimensions of an hourly aggregate (issue 33 reads them): one row per link, hour and context. */
const HOUR_KEY = `organization_id, custom_link_id, hour, type, bot, internal, country, device_type, browser, os, referrer_domain,
  utm_source, utm_medium, utm_campaign`;

const observations = `
  CREATE VIEW session_observations AS
  SELECT organization_id, session_id, custom_link_id, type, min(occurred_at) AS at
    FROM link_events WHERE NOT bot AND internal_reason IS NULL AND session_id IS NOT NULL
   GROUP BY organization_id, session_id, custom_link_id, type`;

const CASCADED = (tables: string[]) => `
  CREATE OR REPLACE FUNCTION engagement_rows_of_deleted_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${tables.map((table) => `DELETE FROM ${table} WHERE organization_id IN (SELECT id FROM old_rows);`).join('\n    ')}
    RETURN NULL;
  END $$`;
const ENGAGEMENT_TABLES = ['link_events', 'link_distinct_values', 'link_sessions'];
const LOG_TABLES = ['link_event_ids', 'link_event_batches', 'engagement_folds', 'link_event_hours'];

/**
 * The event log (issue 32, docs/api.md §6.4): link_events becomes append-only and partitioned by
 * month of receipt (an expired month is dropped whole), and what was derived inside the writing
 * transaction is now folded by workers:
 *
 * - link_event_ids: every eventId ever accepted (a duplicate across any time range; a partitioned
 *   table cannot hold that key).
 * - link_event_batches: the appended batches not yet folded; a fold deletes the ones it folds in its
 *   own transaction, so a batch is folded exactly once.
 * - engagement_folds: one row per organization, locked by the fold that runs for it.
 * - link_event_hours: hourly event counts per link and context, for analytics (issue 33).
 *
 * Today's events are carried over as folded (their rollups stay as they are) in hourly batches;
 * their hourly aggregates are computed here. `refold` recomputes everything from the log
 * (test/event-log-migration.e2e-spec.ts shows the two agree). Keys lead with organization_id and
 * nothing here needs a trigger, so the log distributes by organization on Citus.
 */
export class EventLog1766500000000 implements MigrationInterface {
  name = 'EventLog1766500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW session_observations`);
    await queryRunner.query(`ALTER TABLE link_events RENAME TO link_events_carried`);
    await queryRunner.query(`ALTER INDEX link_events_session_idx RENAME TO link_events_carried_session_idx`);
    await queryRunner.query(`ALTER INDEX link_events_link_idx RENAME TO link_events_carried_link_idx`);
    await queryRunner.query(`
      CREATE TABLE link_events (
        organization_id uuid NOT NULL,
        received_at timestamptz NOT NULL,
        batch_id uuid NOT NULL,
        ${EVENT_COLUMN_TYPES}
      ) PARTITION BY RANGE (received_at)`);
    await queryRunner.query(`CREATE TABLE link_events_default PARTITION OF link_events DEFAULT`);
    // A month per partition, from the oldest carried event's through two months ahead (the
    // maintenance job keeps creating them ahead).
    await queryRunner.query(`
      DO $$
      DECLARE month timestamptz;
      BEGIN
        FOR month IN SELECT generate_series(
            date_trunc('month', least(coalesce((SELECT min(received_at) FROM link_events_carried), now()), now()) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
            date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '2 months', interval '1 month')
        LOOP
          EXECUTE format('CREATE TABLE %I PARTITION OF link_events FOR VALUES FROM (%L) TO (%L)',
            'link_events_' || to_char(month AT TIME ZONE 'UTC', 'YYYYMM'), month, month + interval '1 month');
        END LOOP;
      END $$`);
    await queryRunner.query(
      `INSERT INTO link_events (batch_id, ${EVENT_COLUMNS})
       SELECT md5(organization_id::text || date_trunc('hour', received_at AT TIME ZONE 'UTC')::text)::uuid, ${EVENT_COLUMNS}
         FROM link_events_carried`,
    );
    await queryRunner.query(`
      CREATE TABLE link_event_ids (
        organization_id uuid NOT NULL,
        event_id varchar(128) NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, event_id))`);
    await queryRunner.query(
      `INSERT INTO link_event_ids (organization_id, event_id, received_at) SELECT organization_id, event_id, received_at FROM link_events_carried`,
    );
    await queryRunner.query(`DROP TABLE link_events_carried`);
    await queryRunner.query(
      `CREATE INDEX link_events_link_idx ON link_events (organization_id, custom_link_id, occurred_at, event_id)`,
    );
    await queryRunner.query(
      `CREATE INDEX link_events_session_idx ON link_events (organization_id, session_id, occurred_at) WHERE session_id IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX link_events_batch_idx ON link_events (organization_id, batch_id)`);
    await queryRunner.query(observations);

    await queryRunner.query(`
      CREATE TABLE link_event_batches (
        organization_id uuid NOT NULL,
        batch_id uuid NOT NULL,
        received_at timestamptz NOT NULL,
        event_count integer NOT NULL,
        replay boolean NOT NULL DEFAULT false,
        PRIMARY KEY (organization_id, batch_id))`);
    await queryRunner.query(
      `CREATE INDEX link_event_batches_pending_idx ON link_event_batches (organization_id, received_at, batch_id)`,
    );
    await queryRunner.query(`
      CREATE TABLE engagement_folds (
        organization_id uuid PRIMARY KEY,
        folded_events bigint NOT NULL DEFAULT 0,
        folded_at timestamptz)`);
    await queryRunner.query(`
      CREATE TABLE link_event_hours (
        organization_id uuid NOT NULL,
        custom_link_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        type varchar(32) NOT NULL,
        bot boolean NOT NULL,
        internal boolean NOT NULL,
        country text, device_type text, browser text, os text, referrer_domain text,
        utm_source text, utm_medium text, utm_campaign text,
        events integer NOT NULL,
        CONSTRAINT link_event_hours_key UNIQUE NULLS NOT DISTINCT (${HOUR_KEY}))`);
    await queryRunner.query(`
      INSERT INTO link_event_hours (${HOUR_KEY}, events)
      SELECT organization_id, custom_link_id, date_trunc('hour', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', type, bot,
             internal_reason IS NOT NULL, country, device_type, browser, os, referrer_domain, utm_source, utm_medium, utm_campaign, count(*)
        FROM link_events GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14`);
    await queryRunner.query(CASCADED([...ENGAGEMENT_TABLES, ...LOG_TABLES]));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(CASCADED(ENGAGEMENT_TABLES));
    await queryRunner.query(`DROP TABLE link_event_hours, engagement_folds, link_event_batches`);
    await queryRunner.query(`DROP VIEW session_observations`);
    await queryRunner.query(`ALTER TABLE link_events RENAME TO link_events_log`);
    await queryRunner.query(`ALTER INDEX link_events_session_idx RENAME TO link_events_log_session_idx`);
    await queryRunner.query(`ALTER INDEX link_events_link_idx RENAME TO link_events_log_link_idx`);
    await queryRunner.query(`
      CREATE TABLE link_events (
        organization_id uuid NOT NULL,
        ${EVENT_COLUMN_TYPES.replace(/CHECK \(/, 'CONSTRAINT link_events_bot_reason_check CHECK (')},
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, event_id))`);
    await queryRunner.query(
      `INSERT INTO link_events (${EVENT_COLUMNS}) SELECT ${EVENT_COLUMNS} FROM link_events_log ON CONFLICT DO NOTHING`,
    );
    await queryRunner.query(`DROP TABLE link_events_log, link_event_ids`);
    await queryRunner.query(
      `CREATE INDEX link_events_link_idx ON link_events (organization_id, custom_link_id, occurred_at, event_id)`,
    );
    await queryRunner.query(
      `CREATE INDEX link_events_session_idx ON link_events (organization_id, session_id, occurred_at) WHERE session_id IS NOT NULL`,
    );
    await queryRunner.query(observations);
  }
}
