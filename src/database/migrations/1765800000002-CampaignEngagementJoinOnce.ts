import type { MigrationInterface, QueryRunner } from 'typeorm';

// What follows, down to CAMPAIGN_TRACK_BODIES, repeats migration CampaignEngagementRollup's text on
// purpose: a migration is self-contained, so the SQL it runs never changes with another file.

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

/** The trigger function's bodies as CampaignEngagementRollup made them (this migration's down() restores them). */
const CAMPAIGN_TRACK_BODIES = {
  insert: merge([signed('new_rows', 1)]),
  update: merge([signed('old_rows', -1, CHANGED), signed('new_rows', 1, CHANGED)]) + recomputeTimes(MOVED_OUT),
  delete: merge([signed('old_rows', -1)]) + recomputeTimes(DELETED),
};

/**
 * The same update, old and new rows joined once: CHANGED's IN (join) was planned as a nested loop
 * re-running the join for every row, quadratic in the rows of a statement (an event batch's merge of
 * 800 links spent more in it than in the update itself).
 */
const CAMPAIGN_UPDATE_JOINED_ONCE =
  merge([
    `SELECT d.* FROM old_rows o JOIN new_rows n ON n.organization_id = o.organization_id AND n.id = o.id
      CROSS JOIN LATERAL (${signed('(SELECT o.*)', -1)} UNION ALL ${signed('(SELECT n.*)', 1)}) d
      WHERE (${INPUTS.map((c) => `o.${c}`).join(', ')}) IS DISTINCT FROM (${INPUTS.map((c) => `n.${c}`).join(', ')})`,
  ]) + recomputeTimes(MOVED_OUT);

/** campaign_engagement_track() with these bodies (CampaignEngagementRollup created it and its triggers). */
const trackFunction = (bodies: { insert: string; update: string; delete: string }) =>
  `CREATE OR REPLACE FUNCTION campaign_engagement_track() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'INSERT' THEN ${bodies.insert}
         ELSIF TG_OP = 'UPDATE' THEN ${bodies.update}
         ELSE ${bodies.delete}
         END IF;
         RETURN NULL;
       END $$`;

/**
 * campaign_engagement's trigger on custom_links updates joins a statement's old and new rows once
 * (issue 21): its former query re-ran that join for every changed link, which made the rollup merge
 * of an event batch quadratic in its links.
 */
export class CampaignEngagementJoinOnce1765800000002 implements MigrationInterface {
  name = 'CampaignEngagementJoinOnce1765800000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(trackFunction({ ...CAMPAIGN_TRACK_BODIES, update: CAMPAIGN_UPDATE_JOINED_ONCE }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(trackFunction(CAMPAIGN_TRACK_BODIES));
  }
}
