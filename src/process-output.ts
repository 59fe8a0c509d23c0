import { describeError } from './common/errors/error-log';
import { writeJsonLine } from './json-line';

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
