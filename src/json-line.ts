/**
 * One JSON line on stderr in the logger's shape (level, time, pid, msg), for what the process writes
 * outside the app's logger: in production every line on stdout and stderr is JSON.
 */
export function writeJsonLine(
  level: 'warn' | 'error' | 'fatal',
  msg: string,
  fields: Record<string, unknown> = {},
): void {
  process.stderr.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, msg, ...fields })}\n`);
}
