import type { Params } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppConfig } from '../config/environment';

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Structured request logs. Only method, path (no query: it may hold emails), status and request id
 * are logged: never headers (API keys) or bodies (transcripts, prospect data).
 */
export function loggerParams(config: AppConfig): Params {
  return {
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
