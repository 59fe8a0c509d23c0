/**
 * Whether a statement only reads, so that a streaming replica (read-only, in recovery) may run it.
 * Conservative by design: a statement is a read only when it starts with SELECT or WITH, holds one
 * statement, and names nothing that writes, locks, takes a transaction id or reads the primary's
 * WAL position. Words are matched anywhere, string literals included: a read that merely mentions
 * one goes to the primary, which is always correct, only slower.
 */
export function isReadOnlyStatement(sql: string): boolean {
  const text = sql.replace(/;\s*$/, '');
  if (!/^(select|with)\b/i.test(withoutLeadingComments(text))) return false;
  // Two statements in one string (the simple protocol allows it) are judged as one: the primary.
  // Comments and literals are scanned too: whatever they hold can only send a read to the primary.
  if (text.includes(';')) return false;
  return !WRITES.test(text);
}

const WRITES = new RegExp(
  [
    // Data-modifying CTEs, SELECT … INTO (creates a table).
    String.raw`\b(insert|update|delete|merge|truncate|into|copy)\b`,
    // Row locks: FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE, FOR KEY SHARE (UPDATE is caught above).
    String.raw`\bfor\s+(key\s+)?share\b`,
    // Functions that write or need a primary: sequences, advisory locks, notifications, settings,
    // transaction ids, the WAL position, large objects.
    String.raw`\b(nextval|setval|pg_advisory\w*|pg_try_advisory\w*|pg_notify|set_config|txid_current\w*|pg_current_xact_id\w*|pg_current_wal\w*|lo_\w+)\s*\(`,
    // This schema's own functions that write (migrations): compaction and the triggers' trackers.
    String.raw`\b(compact_\w+|\w+_track|engagement_rows_of_deleted_organizations)\s*\(`,
  ].join('|'),
  'i',
);

/** The text after leading white space and comments (-- to the end of the line, or /* … *\/). */
function withoutLeadingComments(sql: string): string {
  return sql.replace(/^(\s+|--[^\n]*|\/\*[\s\S]*?\*\/)*/, '');
}
