import { isReadOnlyStatement } from './read-statements';

describe('isReadOnlyStatement', () => {
  it.each([
    'SELECT * FROM people WHERE organization_id = $1',
    '  select 1;',
    'WITH page AS (SELECT id FROM sessions WHERE organization_id = $1) SELECT * FROM page',
    '-- hot read\nSELECT updated_at FROM campaigns',
    '/* detail */ SELECT count(*) FROM link_events',
  ])('reads: %s', (sql) => {
    expect(isReadOnlyStatement(sql)).toBe(true);
  });

  it.each([
    ['an insert', 'INSERT INTO people (id) VALUES ($1)'],
    ['an update', 'UPDATE people SET name = $2 WHERE id = $1'],
    ['a data-modifying CTE', 'WITH gone AS (DELETE FROM people RETURNING id) SELECT count(*) FROM gone'],
    ['SELECT … INTO', 'SELECT * INTO copy_of_people FROM people'],
    ['a row lock', 'SELECT * FROM jobs WHERE id = $1 FOR UPDATE SKIP LOCKED'],
    ['a weaker row lock', 'SELECT * FROM jobs FOR NO KEY UPDATE'],
    ['a share lock', 'SELECT * FROM jobs FOR SHARE'],
    ['a key share lock', 'SELECT * FROM jobs FOR KEY SHARE'],
    ['a sequence', `SELECT nextval('people_seq')`],
    ['an advisory lock', 'SELECT pg_try_advisory_xact_lock($1)'],
    ['a notification', `SELECT pg_notify('feed', $1)`],
    ['a setting', `SELECT set_config('statement_timeout', '0', false)`],
    ['a transaction id', 'SELECT txid_current()'],
    ['the WAL position', 'SELECT pg_current_wal_insert_lsn()'],
    ['a function of this schema that writes', 'SELECT compact_session_counts() AS folded'],
    ['two statements', 'SELECT 1; SELECT 2'],
    ['a statement that is not a query', 'SHOW server_version'],
    ['a comment hiding a second statement', "SELECT '--'; DELETE FROM people"],
    ['a write in a comment (conservative)', 'SELECT 1 -- then update'],
    ['an empty string', ''],
  ])('%s goes to the primary', (_, sql) => {
    expect(isReadOnlyStatement(sql)).toBe(false);
  });
});
