import type { MigrationInterface, QueryRunner } from 'typeorm';

// down() recreates the row-level triggers of migration RowLevelTriggers; a migration is
// self-contained, so the text repeats theirs rather than importing it.

const VISIBLE = `environment = 'production' AND analysis_status = 'analyzed'`;
const FACETS = 'effective_qualification_status, buying_intent, booked_status';

const countDelta = (source: string, sign: number) =>
  `SELECT organization_id, date_trunc('month', start_time AT TIME ZONE 'UTC') AS month, ${FACETS}, ${sign} AS sessions FROM ${source} r WHERE ${VISIBLE}`;
const appendCounts = (parts: string[]) => `
  INSERT INTO session_count_deltas (organization_id, month, ${FACETS}, sessions)
  SELECT organization_id, month, ${FACETS}, sum(sessions) FROM (${parts.join(' UNION ALL ')}) d
   GROUP BY organization_id, month, ${FACETS} HAVING sum(sessions) <> 0;`;

const EMAIL_COLUMNS =
  'organization_id, id, start_time, email_key, effective_qualification_status, buying_intent, booked_status';
const searchable = (source: string) =>
  `SELECT ${EMAIL_COLUMNS} FROM ${source} r WHERE ${VISIBLE} AND email_key IS NOT NULL`;
const keysOf = (source: string) => `SELECT organization_id, id FROM (${source}) r`;
const removeEmails = (keys: string) =>
  `DELETE FROM session_emails e USING (${keys}) g WHERE e.organization_id = g.organization_id AND e.id = g.id;`;
const upsertEmails = (source: string) => `
  INSERT INTO session_emails (${EMAIL_COLUMNS}) ${source}
  ON CONFLICT (organization_id, id) DO UPDATE SET start_time = EXCLUDED.start_time, email_key = EXCLUDED.email_key,
    effective_qualification_status = EXCLUDED.effective_qualification_status, buying_intent = EXCLUDED.buying_intent,
    booked_status = EXCLUDED.booked_status;`;

const OLD = '(SELECT OLD.*)';
const NEW = '(SELECT NEW.*)';

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

const dispatch = (bodies: { insert: string; update: string; delete: string }) => `
       BEGIN
         IF TG_OP = 'INSERT' THEN ${bodies.insert}
         ELSIF TG_OP = 'UPDATE' THEN ${bodies.update}
         ELSE ${bodies.delete}
         END IF;
         RETURN NULL;
       END`;

const FUNCTIONS: [name: string, body: string][] = [
  [
    'session_counts_track',
    dispatch({
      insert: appendCounts([countDelta(NEW, 1)]),
      update: appendCounts([countDelta(OLD, -1), countDelta(NEW, 1)]),
      delete: appendCounts([countDelta(OLD, -1)]),
    }),
  ],
  [
    'session_emails_track',
    dispatch({
      insert: upsertEmails(searchable(NEW)),
      update: `${removeEmails(`${keysOf(searchable(OLD))} EXCEPT ${keysOf(searchable(NEW))}`)}
    ${upsertEmails(`${searchable(NEW)} EXCEPT ${searchable(OLD)}`)}`,
      delete: removeEmails(keysOf(searchable(OLD))),
    }),
  ],
  [
    'engagement_rows_of_deleted_organizations',
    `BEGIN\n    ${ENGAGEMENT_TABLES.map((table) => `DELETE FROM ${table} WHERE organization_id IN (SELECT id FROM ${OLD} r);`).join('\n    ')}\n    RETURN NULL;\n  END`,
  ],
];

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
  {
    name: 'organizations_engagement_rows',
    table: 'organizations',
    event: 'DELETE',
    fn: 'engagement_rows_of_deleted_organizations',
  },
];

/**
 * On Citus a row-level trigger runs on the worker that holds the row's shard and cannot write another
 * distributed table (issue 35): the session counts, the email search copy and an organization's
 * engagement rows are written by the service instead, in the transaction that writes the source rows.
 * SessionsRepository's writes of sessions (ingestion's upsert, the people rollup's assignment, the
 * deletion of retention and erasure) append the count deltas and keep session_emails in the same
 * statement, from the row images they lock and return; OrganizationsService deletes the
 * organization's engagement rows in the transaction that deletes it. This drops the triggers that
 * did it, and their functions; the campaign figures' and link search's triggers are not these.
 */
export class SessionDerivedWrites1767200000000 implements MigrationInterface {
  name = 'SessionDerivedWrites1767200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { name, table } of TRIGGERS) await queryRunner.query(`DROP TRIGGER ${name} ON ${table}`);
    for (const [name] of FUNCTIONS) await queryRunner.query(`DROP FUNCTION ${name}()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name, body] of FUNCTIONS)
      await queryRunner.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$${body} $$`);
    for (const { name, table, event, fn, when } of TRIGGERS)
      await queryRunner.query(
        `CREATE TRIGGER ${name} AFTER ${event} ON ${table} FOR EACH ROW ${when ? `WHEN (${when})` : ''} EXECUTE FUNCTION ${fn}()`,
      );
  }
}
