import type { Params } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppConfig } from '../config/environment';

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/** Levels at which request logs (info) are written. */
const REQUEST_LOG_LEVELS = new Set<AppConfig['logLevel']>(['info', 'debug', 'trace']);

/**
 * Structured request logs. Only method, path (no query: it may hold emails), status and request id
 * are logged: never headers (API keys) or bodies (transcripts, prospect data).
 */
export function loggerParams(config: AppConfig): Params {
  return {
    // Above info no request log is ever written, so pino-http's per-request child loggers would be pure
    // cost (about a sixth of a small request); errors are still logged, with their request id, by ApiExceptionFilter.
    ...(REQUEST_LOG_LEVELS.has(config.logLevel) ? {} : { forRoutes: [] }),
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
      autoLogging: { ignore: (req: IncomingMessage) => QUIET_PATHS.has((req.url ?? '').split('?')[0]) },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
        res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      },
    },
  };
}
