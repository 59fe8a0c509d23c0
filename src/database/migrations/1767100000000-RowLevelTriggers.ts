import type { MigrationInterface, QueryRunner } from 'typeorm';

// The trigger bodies below are those of migrations SessionCounts, SessionEmailSearch,
// CampaignEngagementJoinOnce, LinkSearchApart and AnalyticsFacets, written once over a pair of row
// sources: the transition tables (`old_rows`, `new_rows`) give back the statement-level bodies exactly
// (down), and the trigger's own OLD and NEW as one-row sources give the row-level bodies (up). A
// migration is self-contained, so the text repeats theirs rather than importing it.

/** Where a body reads the rows a statement changed: transition tables, or the row at hand. */
type Rows = { old: string; new: string };
const STATEMENT: Rows = { old: 'old_rows', new: 'new_rows' };
const ROW: Rows = { old: '(SELECT OLD.*)', new: '(SELECT NEW.*)' };

const VISIBLE = `environment = 'production' AND analysis_status = 'analyzed'`;
const FACETS = 'effective_qualification_status, buying_intent, booked_status';

const sessionCounts = (rows: Rows) => {
  const month = `date_trunc('month', start_time AT TIME ZONE 'UTC')`;
  const delta = (source: string, sign: number) =>
    `SELECT organization_id, ${month} AS month, ${FACETS}, ${sign} AS sessions FROM ${source} r WHERE ${VISIBLE}`;
  const append = (parts: string[]) => `
  INSERT INTO session_count_deltas (organization_id, month, ${FACETS}, sessions)
  SELECT organization_id, month, ${FACETS}, sum(sessions) FROM (${parts.join(' UNION ALL ')}) d
   GROUP BY organization_id, month, ${FACETS} HAVING sum(sessions) <> 0;`;
  return {
    insert: append([delta(rows.new, 1)]),
    update: append([delta(rows.old, -1), delta(rows.new, 1)]),
    delete: append([delta(rows.old, -1)]),
  };
};

const sessionEmails = (rows: Rows) => {
  const columns =
    'organization_id, id, start_time, email_key, effective_qualification_status, buying_intent, booked_status';
  const searchable = (source: string) =>
    `SELECT ${columns} FROM ${source} r WHERE ${VISIBLE} AND email_key IS NOT NULL`;
  const remove = (keys: string) =>
    `DELETE FROM session_emails e USING (${keys}) g WHERE e.organization_id = g.organization_id AND e.id = g.id;`;
  const upsert = (source: string) => `
  INSERT INTO session_emails (${columns}) ${source}
  ON CONFLICT (organization_id, id) DO UPDATE SET start_time = EXCLUDED.start_time, email_key = EXCLUDED.email_key,
    effective_qualification_status = EXCLUDED.effective_qualification_status, buying_intent = EXCLUDED.buying_intent,
    booked_status = EXCLUDED.booked_status;`;
  const keysOf = (source: string) => `SELECT organization_id, id FROM (${source}) r`;
  return {
    insert: upsert(searchable(rows.new)),
    update: `${remove(`${keysOf(searchable(rows.old))} EXCEPT ${keysOf(searchable(rows.new))}`)}
    ${upsert(`${searchable(rows.new)} EXCEPT ${searchable(rows.old)}`)}`,
    delete: remove(keysOf(searchable(rows.old))),
  };
};

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

const campaignEngagement = (rows: Rows) => {
  const signed = (source: string, sign: 1 | -1) => `
  SELECT organization_id, campaign_id, ${CONTRIBUTION.map(([column, perLink]) => `${sign} * ${perLink} AS ${column}`).join(', ')},
         ${TIMES.map(([column]) => (sign > 0 ? column : `NULL::timestamptz AS ${column}`)).join(', ')}
    FROM ${source} r WHERE campaign_id IS NOT NULL AND true
     AND EXISTS (SELECT 1 FROM campaigns c WHERE c.organization_id = r.organization_id AND c.id = r.campaign_id)`;
  // In campaign order, so that a statement touching several campaigns locks their rows in one order.
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
  return {
    insert: merge([signed(rows.new, 1)]),
    update:
      merge([
        `SELECT d.* FROM ${rows.old} o JOIN ${rows.new} n ON n.organization_id = o.organization_id AND n.id = o.id
      CROSS JOIN LATERAL (${signed('(SELECT o.*)', -1)} UNION ALL ${signed('(SELECT n.*)', 1)}) d
      WHERE ${inputsChanged('o', 'n')}`,
      ]) + recomputeTimes(movedOut),
    delete: merge([signed(rows.old, -1)]) + recomputeTimes(deleted),
  };
};

/** What the link list's `q` and `company` filters match, as a custom_links row holds it. */
const linkSearch = (rows: Rows) =>
  `INSERT INTO custom_link_search SELECT n.organization_id, n.id, n.search_text, lower(n.company) FROM ${rows.new} n;`;

/** The engagement tables without a foreign key to organizations (migrations EngagementRowsCascade, EventLog, AnalyticsFacets). */
const ENGAGEMENT_TABLES = [
  'link_events',
  'link_distinct_values',
  'link_sessions',
  'link_event_ids',
  'link_event_batches',
  'engagement_folds',
  'link_event_hours',
  'event_facet_hours',
  'event_facet_days',
  'event_facet_versions',
];
const engagementRows = (rows: Rows) =>
  ENGAGEMENT_TABLES.map(
    (table) => `DELETE FROM ${table} WHERE organization_id IN (SELECT id FROM ${rows.old} r);`,
  ).join('\n    ');

const dispatch = (bodies: { insert: string; update: string; delete: string }) => `
       BEGIN
         IF TG_OP = 'INSERT' THEN ${bodies.insert}
         ELSIF TG_OP = 'UPDATE' THEN ${bodies.update}
         ELSE ${bodies.delete}
         END IF;
         RETURN NULL;
       END`;

const functions = (rows: Rows): [name: string, body: string][] => [
  ['session_counts_track', dispatch(sessionCounts(rows))],
  ['session_emails_track', dispatch(sessionEmails(rows))],
  ['campaign_engagement_track', dispatch(campaignEngagement(rows))],
  ['custom_link_search_insert', `BEGIN ${linkSearch(rows)} RETURN NULL; END`],
  ['engagement_rows_of_deleted_organizations', `BEGIN\n    ${engagementRows(rows)}\n    RETURN NULL;\n  END`],
];

/** The session columns the counts depend on, and those the email search copies. */
const COUNTED = ['environment', 'analysis_status', 'start_time', ...FACETS.split(', ')];
const SEARCHED = [...COUNTED, 'email_key'];
const changed = (columns: string[]) =>
  `(${columns.map((c) => `OLD.${c}`).join(', ')}) IS DISTINCT FROM (${columns.map((c) => `NEW.${c}`).join(', ')})`;

type Trigger = { name: string; table: string; event: 'INSERT' | 'UPDATE' | 'DELETE'; fn: string; when?: string };
const TRIGGERS: Trigger[] = [
  { name: 'sessions_count_insert', table: 'sessions', event: 'INSERT', fn: 'session_counts_track' },
  {
    name: 'sessions_count_update',
    table: 'sessions',
    event: 'UPDATE',
    fn: 'session_counts_track',
    when: changed(COUNTED),
  },
  { name: 'sessions_count_delete', table: 'sessions', event: 'DELETE', fn: 'session_counts_track' },
  { name: 'sessions_email_search_insert', table: 'sessions', event: 'INSERT', fn: 'session_emails_track' },
  {
    name: 'sessions_email_search_update',
    table: 'sessions',
    event: 'UPDATE',
    fn: 'session_emails_track',
    when: changed(SEARCHED),
  },
  { name: 'sessions_email_search_delete', table: 'sessions', event: 'DELETE', fn: 'session_emails_track' },
  { name: 'custom_links_campaign_insert', table: 'custom_links', event: 'INSERT', fn: 'campaign_engagement_track' },
  {
    name: 'custom_links_campaign_update',
    table: 'custom_links',
    event: 'UPDATE',
    fn: 'campaign_engagement_track',
    when: inputsChanged('OLD', 'NEW'),
  },
  { name: 'custom_links_campaign_delete', table: 'custom_links', event: 'DELETE', fn: 'campaign_engagement_track' },
  { name: 'custom_links_search_insert', table: 'custom_links', event: 'INSERT', fn: 'custom_link_search_insert' },
  {
    name: 'organizations_engagement_rows',
    table: 'organizations',
    event: 'DELETE',
    fn: 'engagement_rows_of_deleted_organizations',
  },
];

const statementTrigger = ({ name, table, event, fn }: Trigger) => {
  const transition = { INSERT: 'NEW TABLE AS new_rows', UPDATE: 'OLD TABLE AS old_rows NEW TABLE AS new_rows' };
  const referencing = event === 'DELETE' ? 'OLD TABLE AS old_rows' : transition[event];
  return `CREATE TRIGGER ${name} AFTER ${event} ON ${table} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`;
};
const rowTrigger = ({ name, table, event, fn, when }: Trigger) =>
  `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW ${when ? `WHEN (${when})` : ''} EXECUTE FUNCTION ${fn}()`;

/**
 * Citus runs row-level triggers on distributed tables (behind `citus.enable_unsafe_triggers`) and no
 * trigger with transition tables (issue 35): the eleven statement-level triggers that keep the session
 * counts, the email search, the campaign figures and the link search copy, and that delete an
 * organization's engagement rows, become row-level triggers running the same statements over the one
 * row. Each target row is co-located with its source row (same organization), so on Citus a trigger
 * writes its own shard group.
 *
 * Cost per row, not per statement: one PL/pgSQL call and the statement it ran once per statement, its
 * plan cached per connection. Writers of one row (an ingested session, a link edit) pay the same as
 * before. Multi-row writers pay it per row: a job's 500 links, 500 link-search inserts and 500
 * campaign upserts (of the same campaign row, already locked by the first); a rollup merge, one upsert
 * per link whose campaign figures changed. UPDATE triggers fire only when a column they read changed
 * (their WHEN), so a person rollup or a thumbnail status update queues no trigger at all, which the
 * statement-level triggers could not skip. A deletion recomputes its campaign's times once per link,
 * from the links left (custom_links_campaign_idx); deleting links is per link or per organization.
 */
export class RowLevelTriggers1767100000000 implements MigrationInterface {
  name = 'RowLevelTriggers1767100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.replace(queryRunner, ROW, rowTrigger);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.replace(queryRunner, STATEMENT, statementTrigger);
  }

  private async replace(queryRunner: QueryRunner, rows: Rows, trigger: (t: Trigger) => string): Promise<void> {
    for (const { name, table } of TRIGGERS) await queryRunner.query(`DROP TRIGGER ${name} ON ${table}`);
    for (const [name, body] of functions(rows))
      await queryRunner.query(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$${body} $$`);
    for (const t of TRIGGERS) await queryRunner.query(trigger(t));
  }
}
