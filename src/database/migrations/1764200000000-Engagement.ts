import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Engagement tracking (docs/api.md §6). Each link carries its rollup as sufficient statistics that
 * merge in any order: counters, earliest/latest times, and the last activity; distinct counts
 * (page views, visitors, sessions) are backed by one row per distinct value, whose insert tells
 * whether a value is new. Events are kept once per (organization, eventId) for deduplication and
 * for session lifecycles; session references hold the earliest time of each kind per link.
 */
export class Engagement1764200000000 implements MigrationInterface {
  name = 'Engagement1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE custom_links
        ADD COLUMN open_observed boolean NOT NULL DEFAULT false,
        ADD COLUMN bot_open_count integer NOT NULL DEFAULT 0,
        ADD COLUMN load_count integer NOT NULL DEFAULT 0,
        ADD COLUMN page_view_count integer NOT NULL DEFAULT 0,
        ADD COLUMN persistent_visitor_count integer NOT NULL DEFAULT 0,
        ADD COLUMN ephemeral_page_view_count integer NOT NULL DEFAULT 0,
        ADD COLUMN session_count integer NOT NULL DEFAULT 0,
        ADD COLUMN started_session_count integer NOT NULL DEFAULT 0,
        ADD COLUMN engaged_session_count integer NOT NULL DEFAULT 0,
        ADD COLUMN first_opened_at timestamptz,
        ADD COLUMN last_opened_at timestamptz,
        ADD COLUMN first_started_at timestamptz,
        ADD COLUMN first_engaged_at timestamptz,
        ADD COLUMN first_lead_submitted_at timestamptz,
        ADD COLUMN first_meeting_clicked_at timestamptz,
        ADD COLUMN first_meeting_booked_at timestamptz,
        ADD COLUMN last_activity_type varchar(32),
        ADD COLUMN last_activity_event_id varchar(128)`);
    // GET /custom-links?stage=… (exact stage), newest first.
    await queryRunner.query(
      `CREATE INDEX custom_links_stage_idx ON custom_links (organization_id, stage, created_at DESC, id DESC)`,
    );

    await queryRunner.query(`
      CREATE TABLE link_events (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        event_id varchar(128) NOT NULL,
        custom_link_id uuid NOT NULL,
        type varchar(32) NOT NULL,
        occurred_at timestamptz NOT NULL,
        page_view_id varchar(128),
        visitor_id varchar(128),
        session_id uuid,
        bot boolean NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, event_id)
      )`);
    // A session's lifecycle (session detail) reads its events.
    await queryRunner.query(
      `CREATE INDEX link_events_session_idx ON link_events (organization_id, session_id, occurred_at) WHERE session_id IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE link_distinct_values (
        organization_id uuid NOT NULL,
        custom_link_id uuid NOT NULL,
        kind varchar(32) NOT NULL,
        value varchar(128) NOT NULL,
        PRIMARY KEY (organization_id, custom_link_id, kind, value)
      )`);

    await queryRunner.query(`
      CREATE TABLE link_sessions (
        organization_id uuid NOT NULL,
        custom_link_id uuid NOT NULL,
        session_id uuid NOT NULL,
        opened_at timestamptz,
        started_at timestamptz,
        engaged_at timestamptz,
        ended_at timestamptz,
        first_seen_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, custom_link_id, session_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX link_sessions_list_idx ON link_sessions (organization_id, custom_link_id, first_seen_at DESC, session_id DESC)`,
    );
    await queryRunner.query(`CREATE INDEX link_sessions_session_idx ON link_sessions (organization_id, session_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE link_sessions`);
    await queryRunner.query(`DROP TABLE link_distinct_values`);
    await queryRunner.query(`DROP TABLE link_events`);
    await queryRunner.query(`DROP INDEX custom_links_stage_idx`);
    await queryRunner.query(`
      ALTER TABLE custom_links
        DROP COLUMN open_observed, DROP COLUMN bot_open_count, DROP COLUMN load_count, DROP COLUMN page_view_count,
        DROP COLUMN persistent_visitor_count, DROP COLUMN ephemeral_page_view_count, DROP COLUMN session_count,
        DROP COLUMN started_session_count, DROP COLUMN engaged_session_count, DROP COLUMN first_opened_at,
        DROP COLUMN last_opened_at, DROP COLUMN first_started_at, DROP COLUMN first_engaged_at,
        DROP COLUMN first_lead_submitted_at, DROP COLUMN first_meeting_clicked_at, DROP COLUMN first_meeting_booked_at,
        DROP COLUMN last_activity_type, DROP COLUMN last_activity_event_id`);
  }
}
