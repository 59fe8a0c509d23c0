import { describeError } from './common/errors/error-log';

/**
 * What the process writes outside the app's logger (start-up and shutdown failures, errors nobody
 * handled) as one JSON line in the logger's shape, so that in production every line on stdout and
 * stderr is JSON. Errors by type, code and frames, never by message (describeError).
 */
export function writeJsonLine(
  level: 'warn' | 'error' | 'fatal',
  msg: string,
  fields: Record<string, unknown> = {},
): void {
  process.stderr.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, msg, ...fields })}\n`);
}

/**
 * Process-wide: an unhandled rejection is logged (none is expected: the tests fail on one) and the
 * process carries on; an uncaught exception is logged and ends the process, as Node would; Node's
 * own warnings (deprecations, listener leaks) are JSON lines too instead of its plain text.
 */
export function logUnhandledErrors(): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) =>
    writeJsonLine('warn', 'Process warning', {
      name: warning.name,
      code: warning.code ?? null,
      warning: warning.message,
    }),
  );
  process.on('unhandledRejection', (reason: unknown) =>
    writeJsonLine('error', 'Unhandled rejection', { err: describeError(reason) }),
  );
  process.on('uncaughtException', (error: Error) => {
    writeJsonLine('fatal', 'Uncaught exception', { err: describeError(error) });
    process.exit(1);
  });
}
