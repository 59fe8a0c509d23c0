import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each link's contribution to its campaign's counters (docs/api.md §2.10; the funnel counts the same way). */
const CONTRIBUTION: [column: string, perLink: string][] = [
  ['links', '1'],
  ['active_links', 'active::int'],
  ['opened', `(stage <> 'not_opened')::int`],
  ['started', `(stage IN ('started', 'engaged'))::int`],
  ['engaged', `(stage = 'engaged')::int`],
  ['lead_submitted', '(first_lead_submitted_at IS NOT NULL)::int'],
  ['meeting_clicked', '(first_meeting_clicked_at IS NOT NULL)::int'],
  ['meeting_booked', '(first_meeting_booked_at IS NOT NULL)::int'],
  ['bot_scanned_only', '(bot_open_count > 0 AND NOT open_observed)::int'],
  ['page_views', 'page_view_count'],
  ['loads', 'load_count'],
  ['persistent_visitors', 'persistent_visitor_count'],
  ['ephemeral_page_views', 'ephemeral_page_view_count'],
  ['sessions', 'session_count'],
  ['started_sessions', 'started_session_count'],
  ['engaged_sessions', 'engaged_session_count'],
];
const TIMES: [column: string, aggregate: 'min' | 'max', merge: 'LEAST' | 'GREATEST'][] = [
  ['first_opened_at', 'min', 'LEAST'],
  ['last_opened_at', 'max', 'GREATEST'],
  ['last_activity_at', 'max', 'GREATEST'],
];
const COUNTERS = CONTRIBUTION.map(([column]) => column);
const ALL = [...COUNTERS, ...TIMES.map(([column]) => column)];

/** The link columns a campaign's figures depend on. */
const INPUTS = [
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
];

/** Filed rows of a transition table as signed contributions (old rows count negative and bring no times). */
const signed = (rows: string, sign: 1 | -1, only = 'true') => `
  SELECT organization_id, campaign_id, ${CONTRIBUTION.map(([column, perLink]) => `${sign} * ${perLink} AS ${column}`).join(', ')},
         ${TIMES.map(([column]) => (sign > 0 ? column : `NULL::timestamptz AS ${column}`)).join(', ')}
    FROM ${rows} r WHERE campaign_id IS NOT NULL AND ${only}
     AND EXISTS (SELECT 1 FROM campaigns c WHERE c.organization_id = r.organization_id AND c.id = r.campaign_id)`;

/** Of an UPDATE, only the links whose campaign figures changed (a thumbnail status update touches no campaign). */
const CHANGED = `r.id IN (SELECT o.id FROM old_rows o JOIN new_rows n ON n.organization_id = o.organization_id AND n.id = o.id
  WHERE (${INPUTS.map((c) => `o.${c}`).join(', ')}) IS DISTINCT FROM (${INPUTS.map((c) => `n.${c}`).join(', ')}))`;

/**
 * Adds a statement's signed contributions per campaign, in campaign order so that concurrent writers
 * lock campaign rows in one order. Times merge by LEAST/GREATEST: a link's rollup only ever moves its
 * first times earlier and its last times later (docs/api.md §6.4), so only a link leaving a campaign can
 * make them stale, and those campaigns' times are recomputed from their links.
 */
const merge = (parts: string[]) => `
  INSERT INTO campaign_engagement AS ce (organization_id, campaign_id, ${ALL.join(', ')})
  SELECT organization_id, campaign_id, ${COUNTERS.map((c) => `sum(${c})`).join(', ')}, ${TIMES.map(([c, agg]) => `${agg}(${c})`).join(', ')}
    FROM (${parts.join(' UNION ALL ')}) d
   GROUP BY organization_id, campaign_id ORDER BY organization_id, campaign_id
  ON CONFLICT (organization_id, campaign_id) DO UPDATE SET
    ${COUNTERS.map((c) => `${c} = ce.${c} + EXCLUDED.${c}`).join(', ')},
    ${TIMES.map(([c, , merge]) => `${c} = ${merge}(ce.${c}, EXCLUDED.${c})`).join(', ')};`;

const recomputeTimes = (lostCampaigns: string) => `
  UPDATE campaign_engagement ce SET ${TIMES.map(([c]) => `${c} = t.${c}`).join(', ')}
    FROM (${lostCampaigns}) lost
   CROSS JOIN LATERAL (
     SELECT ${TIMES.map(([c, agg]) => `${agg}(l.${c}) AS ${c}`).join(', ')} FROM custom_links l
      WHERE l.organization_id = lost.organization_id AND l.campaign_id = lost.campaign_id) t
   WHERE ce.organization_id = lost.organization_id AND ce.campaign_id = lost.campaign_id;`;

const MOVED_OUT = `SELECT DISTINCT o.organization_id, o.campaign_id FROM old_rows o
  JOIN new_rows n ON n.organization_id = o.organization_id AND n.id = o.id
 WHERE o.campaign_id IS NOT NULL AND n.campaign_id IS DISTINCT FROM o.campaign_id`;
const DELETED = `SELECT DISTINCT organization_id, campaign_id FROM old_rows WHERE campaign_id IS NOT NULL`;

/** The trigger function's bodies (migration CampaignEngagementJoinOnce later replaces the update's). */
const CAMPAIGN_TRACK_BODIES = {
  insert: merge([signed('new_rows', 1)]),
  update: merge([signed('old_rows', -1, CHANGED), signed('new_rows', 1, CHANGED)]) + recomputeTimes(MOVED_OUT),
  delete: merge([signed('old_rows', -1)]) + recomputeTimes(DELETED),
};

/**
 * campaign_engagement_track() runs after each INSERT, UPDATE and DELETE statement on custom_links, once per
 * statement, and sees its rows as the transition tables `old_rows` / `new_rows`.
 */
const TRIGGERS = {
  up: [
    `CREATE FUNCTION campaign_engagement_track() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'INSERT' THEN ${CAMPAIGN_TRACK_BODIES.insert}
         ELSIF TG_OP = 'UPDATE' THEN ${CAMPAIGN_TRACK_BODIES.update}
         ELSE ${CAMPAIGN_TRACK_BODIES.delete}
         END IF;
         RETURN NULL;
       END $$`,
    `CREATE TRIGGER custom_links_campaign_insert AFTER INSERT ON custom_links REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_engagement_track()`,
    `CREATE TRIGGER custom_links_campaign_update AFTER UPDATE ON custom_links REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_engagement_track()`,
    `CREATE TRIGGER custom_links_campaign_delete AFTER DELETE ON custom_links REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_engagement_track()`,
  ],
  down: [
    `DROP TRIGGER custom_links_campaign_delete ON custom_links`,
    `DROP TRIGGER custom_links_campaign_update ON custom_links`,
    `DROP TRIGGER custom_links_campaign_insert ON custom_links`,
    `DROP FUNCTION campaign_engagement_track()`,
  ],
};

/**
 * Campaign engagement (docs/api.md §2.10) kept per campaign in the transaction that changes its links, so
 * reading it is one row instead of an aggregate over every link (50,000 in a large campaign). A
 * statement-level trigger on custom_links applies each statement's changes; an event batch that
 * merges hundreds of links updates each of their campaigns once.
 */
export class CampaignEngagementRollup1764600000000 implements MigrationInterface {
  name = 'CampaignEngagementRollup1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE campaign_engagement (
        organization_id uuid NOT NULL,
        campaign_id uuid NOT NULL,
        ${COUNTERS.map((c) => `${c} bigint NOT NULL DEFAULT 0`).join(', ')},
        ${TIMES.map(([c]) => `${c} timestamptz`).join(', ')},
        PRIMARY KEY (organization_id, campaign_id),
        FOREIGN KEY (organization_id, campaign_id) REFERENCES campaigns (organization_id, id) ON DELETE CASCADE
      )`);
    for (const statement of TRIGGERS.up) await queryRunner.query(statement);

    // A campaign without links has no row; its figures read as zeros.
    await queryRunner.query(`
      INSERT INTO campaign_engagement (organization_id, campaign_id, ${ALL.join(', ')})
      SELECT organization_id, campaign_id, ${CONTRIBUTION.map(([, perLink]) => `sum(${perLink})`).join(', ')},
             ${TIMES.map(([c, agg]) => `${agg}(${c})`).join(', ')}
        FROM custom_links WHERE campaign_id IS NOT NULL GROUP BY organization_id, campaign_id`);
    // The aggregate no longer reads links, so its covering index only cost writes.
    await queryRunner.query(`DROP INDEX custom_links_campaign_engagement_idx`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE INDEX custom_links_campaign_engagement_idx ON custom_links (organization_id, campaign_id)
        INCLUDE (active, stage, open_observed, bot_open_count, load_count, page_view_count, persistent_visitor_count,
                 ephemeral_page_view_count, session_count, started_session_count, engaged_session_count, first_opened_at,
                 last_opened_at, first_lead_submitted_at, first_meeting_clicked_at, first_meeting_booked_at, last_activity_at)
        WHERE campaign_id IS NOT NULL`);
    for (const statement of TRIGGERS.down) await queryRunner.query(statement);
    await queryRunner.query(`DROP TABLE campaign_engagement`);
  }
}
