/**
 * A timestamptz column as the API writes timestamps (docs/api.md §1.1: UTC, milliseconds, `Z`), for
 * a SELECT list under the column's own name. PostgreSQL formats it, so the driver hands over a
 * string: it would otherwise parse each value into a Date (a regular expression and an allocation
 * per value) only for the response to format it back. Milliseconds are truncated, as the driver's
 * Date truncates them. NULL stays NULL.
 */
export function isoTimestamp(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column.replace(/^\w+\./, '')}`;
}
