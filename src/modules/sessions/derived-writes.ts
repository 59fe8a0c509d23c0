import { visibleSession } from './visible-session';

/** The columns of a session that its derived rows read: what `before` and `after` hold (DERIVED_WRITES). */
const IMAGE_COLUMNS = [
  'organization_id',
  'id',
  'environment',
  'analysis_status',
  'start_time',
  'email_key',
  'effective_qualification_status',
  'buying_intent',
  'booked_status',
];
export const SESSION_IMAGE = IMAGE_COLUMNS.join(', ');
/** SESSION_IMAGE of the sessions row named `alias`, where another relation has the same columns. */
export const sessionImageOf = (alias: string) => IMAGE_COLUMNS.map((column) => `${alias}.${column}`).join(', ');

const FACETS = 'effective_qualification_status, buying_intent, booked_status';
const VISIBLE = visibleSession();
const SEARCHABLE = `${VISIBLE} AND email_key IS NOT NULL`;
const EMAIL_COLUMNS = `organization_id, id, start_time, email_key, ${FACETS}`;
const MONTH = `date_trunc('month', start_time AT TIME ZONE 'UTC')`;

/**
 * The rows derived from sessions, written by the statement that writes the sessions (issue 35: on
 * Citus a trigger cannot write another distributed table). A statement that writes sessions names
 * its rows' images in two CTEs, `before` (as the write found them, or none for an insertion) and
 * `after` (RETURNING, or none for a deletion), each with SESSION_IMAGE's columns, and adds these
 * CTEs; its organization is $1, so on Citus the whole statement runs on that organization's shard.
 * `before` must be read under the rows' locks (FOR UPDATE, or a DELETE's RETURNING), so that two
 * writers of one session count it once: the second reads what the first wrote.
 *
 * - counted: the signed changes to the visible sessions per UTC month and facets, appended to
 *   session_count_deltas (folded into session_counts later, migration SessionCounts); a write that
 *   changes none of those columns appends nothing.
 * - unlisted, listed: session_emails, the email search's copy of the visible sessions that have an
 *   email (migration SessionEmailSearch), loses the sessions that left it and takes those that came
 *   in or changed.
 */
export const DERIVED_WRITES = `
  counted AS (
    INSERT INTO session_count_deltas (organization_id, month, ${FACETS}, sessions)
    SELECT organization_id, month, ${FACETS}, sum(sessions) FROM (
      SELECT organization_id, ${MONTH} AS month, ${FACETS}, -1 AS sessions FROM before WHERE ${VISIBLE}
      UNION ALL
      SELECT organization_id, ${MONTH} AS month, ${FACETS}, 1 AS sessions FROM after WHERE ${VISIBLE}) d
     GROUP BY organization_id, month, ${FACETS} HAVING sum(sessions) <> 0),
  unlisted AS (
    DELETE FROM session_emails e WHERE e.organization_id = $1 AND e.id IN (
      SELECT id FROM before WHERE ${SEARCHABLE} EXCEPT SELECT id FROM after WHERE ${SEARCHABLE})),
  listed AS (
    INSERT INTO session_emails (${EMAIL_COLUMNS})
    SELECT ${EMAIL_COLUMNS} FROM after WHERE ${SEARCHABLE}
    EXCEPT SELECT ${EMAIL_COLUMNS} FROM before WHERE ${SEARCHABLE}
    ON CONFLICT (organization_id, id) DO UPDATE SET start_time = EXCLUDED.start_time, email_key = EXCLUDED.email_key,
      effective_qualification_status = EXCLUDED.effective_qualification_status, buying_intent = EXCLUDED.buying_intent,
      booked_status = EXCLUDED.booked_status)`;
