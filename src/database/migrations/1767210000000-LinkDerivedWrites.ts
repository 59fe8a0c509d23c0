import type { MigrationInterface, QueryRunner } from 'typeorm';

// down() recreates what RowLevelTriggers (campaign_engagement_track, custom_link_search_insert) and
// LinkSearchApart (custom_link_search_update) left; a migration is self-contained, so it repeats their text.

/** Each link's contribution to its campaign's counters (docs/api.md §2.10). */
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
const inputsChanged = (old: string, next: string) =>
  `(${INPUTS.map((c) => `${old}.${c}`).join(', ')}) IS DISTINCT FROM (${INPUTS.map((c) => `${next}.${c}`).join(', ')})`;

/** The row-level body of campaign_engagement_track (RowLevelTriggers), over OLD and NEW as one-row sources. */
function campaignEngagementTrack(): string {
  const rows = { old: '(SELECT OLD.*)', new: '(SELECT NEW.*)' };
  const signed = (source: string, sign: 1 | -1) => `
  SELECT organization_id, campaign_id, ${CONTRIBUTION.map(([column, perLink]) => `${sign} * ${perLink} AS ${column}`).join(', ')},
         ${TIMES.map(([column]) => (sign > 0 ? column : `NULL::timestamptz AS ${column}`)).join(', ')}
    FROM ${source} r WHERE campaign_id IS NOT NULL AND true
     AND EXISTS (SELECT 1 FROM campaigns c WHERE c.organization_id = r.organization_id AND c.id = r.campaign_id)`;
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
  const movedOut = `SELECT DISTINCT o.organization_id, o.campaign_id FROM ${rows.old} o
  JOIN ${rows.new} n ON n.organization_id = o.organization_id AND n.id = o.id
 WHERE o.campaign_id IS NOT NULL AND n.campaign_id IS DISTINCT FROM o.campaign_id`;
  const deleted = `SELECT DISTINCT organization_id, campaign_id FROM ${rows.old} r WHERE campaign_id IS NOT NULL`;
  const update =
    merge([
      `SELECT d.* FROM ${rows.old} o JOIN ${rows.new} n ON n.organization_id = o.organization_id AND n.id = o.id
      CROSS JOIN LATERAL (${signed('(SELECT o.*)', -1)} UNION ALL ${signed('(SELECT n.*)', 1)}) d
      WHERE ${inputsChanged('o', 'n')}`,
    ]) + recomputeTimes(movedOut);
  const remove = merge([signed(rows.old, -1)]) + recomputeTimes(deleted);
  return `
       BEGIN
         IF TG_OP = 'INSERT' THEN ${merge([signed(rows.new, 1)])}
         ELSIF TG_OP = 'UPDATE' THEN ${update}
         ELSE ${remove}
         END IF;
         RETURN NULL;
       END`;
}

/** What the link list's `q` and `company` filters match, as a custom_links row holds it. */
const COPIED = (row: string) => `${row}.search_text, lower(${row}.company)`;

const FUNCTIONS: [name: string, body: string][] = [
  ['campaign_engagement_track', campaignEngagementTrack()],
  [
    'custom_link_search_insert',
    `BEGIN INSERT INTO custom_link_search SELECT n.organization_id, n.id, ${COPIED('n')} FROM (SELECT NEW.*) n; RETURN NULL; END`,
  ],
  [
    'custom_link_search_update',
    `
      BEGIN
        UPDATE custom_link_search SET (search_text, company_key) = (SELECT ${COPIED('NEW')})
         WHERE organization_id = NEW.organization_id AND custom_link_id = NEW.id;
        RETURN NULL;
      END`,
  ],
];

const TRIGGERS: [name: string, event: string, fn: string, when?: string][] = [
  ['custom_links_campaign_insert', 'INSERT', 'campaign_engagement_track'],
  ['custom_links_campaign_update', 'UPDATE', 'campaign_engagement_track', inputsChanged('OLD', 'NEW')],
  ['custom_links_campaign_delete', 'DELETE', 'campaign_engagement_track'],
  ['custom_links_search_insert', 'INSERT', 'custom_link_search_insert'],
  [
    'custom_links_search_update',
    'UPDATE',
    'custom_link_search_update',
    `(${COPIED('OLD')}) IS DISTINCT FROM (${COPIED('NEW')})`,
  ],
];

/** custom-links' read model, before (LinkAccountDomains) and with the times a campaign's figures take from its links. */
const LINK_ROLLUPS = `organization_id, id AS link_id, campaign_id, created_at, active, stage, first_lead_submitted_at,
  first_meeting_clicked_at, first_meeting_booked_at, bot_open_count, open_observed, account_domain`;
const LINK_TIMES = 'first_opened_at, last_opened_at, last_activity_at';

/**
 * The custom_links triggers that wrote other tables go (issue 35): on Citus a row-level trigger runs
 * on the worker's shard and cannot write another distributed table ("cannot execute a distributed
 * query from a query on a shard"). The writers of custom_links keep what the triggers kept, in their
 * own transaction: the search copy (custom_link_search) in the writing statement itself, as a
 * data-modifying CTE; the campaign figures (campaign_engagement, the engagement module's) in the next
 * statement, from the links as locked before the write and as the write returned them
 * (LinkFiling.figuresChanged). When a link takes a campaign's earliest or latest time away (it
 * leaves the campaign, or a refold resets it), the campaign's times are recounted from its links
 * through link_rollups, which gains those three times.
 *
 * custom_links_touch_updated_at stays: a BEFORE trigger that writes only its own row.
 */
export class LinkDerivedWrites1767210000000 implements MigrationInterface {
  name = 'LinkDerivedWrites1767210000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of TRIGGERS) await queryRunner.query(`DROP TRIGGER ${name} ON custom_links`);
    for (const [name] of FUNCTIONS) await queryRunner.query(`DROP FUNCTION ${name}()`);
    await queryRunner.query(
      `CREATE OR REPLACE VIEW link_rollups AS SELECT ${LINK_ROLLUPS}, ${LINK_TIMES} FROM custom_links`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // A view cannot drop a column by CREATE OR REPLACE.
    await queryRunner.query(`DROP VIEW link_rollups`);
    await queryRunner.query(`CREATE VIEW link_rollups AS SELECT ${LINK_ROLLUPS} FROM custom_links`);
    for (const [name, body] of FUNCTIONS)
      await queryRunner.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$${body} $$`);
    for (const [name, event, fn, when] of TRIGGERS)
      await queryRunner.query(
        `CREATE TRIGGER ${name} AFTER ${event} ON custom_links FOR EACH ROW ${when ? `WHEN (${when})` : ''} EXECUTE FUNCTION ${fn}()`,
      );
  }
}
