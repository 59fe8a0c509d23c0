import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read models: views a module declares over its own tables for other modules to join in their SQL
 * (README "Architecture", the reading rule; src/database/table-owners.ts lists them). A view is
 * inlined by the planner, so a reader's one statement plans as the join it replaces; the owner may
 * change its tables as long as its views keep their columns. Issue 31 brought the session detail,
 * the sessions list, campaign engagement and the funnel back to one statement each (bench/RESULTS.md,
 * issue 31).
 *
 * - person_intents (people): a person's intent, for the sessions that point at them.
 * - session_observations (engagement): the earliest human event of each type per link and session
 *   (link_events_session_idx: the outer query's organization and session are grouping columns, so
 *   they are pushed down into the grouping).
 * - campaign_ids (campaigns): the campaigns that exist, for readers that must tell a missing one.
 * - link_rollups (custom-links): each link's window keys and engagement rollup, for the funnel.
 * - visible_sessions (sessions): the visible sessions (visibleSession(), so the partial indexes of
 *   sessions still match), with what the funnel counts of them.
 */
export class ReadModels1766100000000 implements MigrationInterface {
  name = 'ReadModels1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE VIEW person_intents AS
      SELECT organization_id, id AS person_id, overall_intent, intent_score, intent_calculated_at FROM people`);
    await queryRunner.query(`
      CREATE VIEW session_observations AS
      SELECT organization_id, session_id, custom_link_id, type, min(occurred_at) AS at
        FROM link_events WHERE NOT bot AND session_id IS NOT NULL
       GROUP BY organization_id, session_id, custom_link_id, type`);
    await queryRunner.query(`CREATE VIEW campaign_ids AS SELECT organization_id, id AS campaign_id FROM campaigns`);
    await queryRunner.query(`
      CREATE VIEW link_rollups AS
      SELECT organization_id, id AS link_id, campaign_id, created_at, active, stage, first_lead_submitted_at,
             first_meeting_clicked_at, first_meeting_booked_at, bot_open_count, open_observed
        FROM custom_links`);
    await queryRunner.query(`
      CREATE VIEW visible_sessions AS
      SELECT organization_id, id AS session_id, custom_link_id, person_id, effective_qualification_status, booked_status
        FROM sessions WHERE environment = 'production' AND analysis_status = 'analyzed'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP VIEW visible_sessions`);
    await queryRunner.query(`DROP VIEW link_rollups`);
    await queryRunner.query(`DROP VIEW campaign_ids`);
    await queryRunner.query(`DROP VIEW session_observations`);
    await queryRunner.query(`DROP VIEW person_intents`);
  }
}
