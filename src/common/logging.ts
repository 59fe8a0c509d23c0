import type { Params } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';
import type { AppConfig } from '../config/environment';
import { describeError } from './errors/error-log';
import { logTraceFields } from './tracing/trace-context';

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/** Levels at which request logs (info) are written. */
const REQUEST_LOG_LEVELS = new Set<AppConfig['logLevel']>(['info', 'debug', 'trace']);
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Query parameter names as the API spells them (snake_case); other names are not logged. */
const QUERY_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const MAX_QUERY_NAMES = 20;
/** Middleware mounted on every path (request logging, metrics) shows up as a catch-all route. */
const CATCH_ALL_ROUTE = /^[{/]*\*/;

/**
 * Belt and braces behind the serializers, which already build every field they log: should a log
 * call pass one of these objects whole, its value is replaced.
 */
const REDACTED_PATHS = [
  'headers',
  '*.headers',
  'authorization',
  '*.authorization',
  '["x-api-key"]',
  '*["x-api-key"]',
  'cookie',
  '*.cookie',
  'apiKey',
  '*.apiKey',
  'body',
  '*.body',
  'email',
  '*.email',
  'transcript',
  '*.transcript',
  'parameters',
  '*.parameters',
  'driverError',
  '*.driverError',
];

interface RoutedRequest extends IncomingMessage {
  id: string;
  principal?: { organizationId?: string };
  originalUrl?: string;
  route?: { path?: unknown };
  params?: Record<string, unknown>;
}

/**
 * Structured logs that hold no personal data and no secrets (docs/DECISIONS.md, issue 17). A
 * request line holds the method, the route it matched (`/api/v1/custom-links/:link_id`), that
 * route with its UUID parameters filled in, the names of the query parameters (never their
 * values: `?email=` holds an address), the status and the request id. Never headers (API keys),
 * bodies (transcripts, prospect data) or a path the router did not match (it is the caller's
 * text). Errors are logged by type, code and stack frames, never by message (describeError).
 * `destination` is for tests that read what is logged; stdout otherwise.
 */
export function loggerParams(config: AppConfig, destination?: DestinationStream): Params {
  const options = {
    level: config.logLevel,
    // "level":"info" rather than 30: log pipelines and people read the name.
    formatters: { level: (label: string) => ({ level: label }) },
    // With tracing on, every line written while a request or job runs names its trace and span
    // (trace_id, span_id): logs and traces join by id, not by time. Off, no line pays for it.
    ...(config.operations.tracesExporter === null ? {} : { mixin: logTraceFields }),
    customAttributeKeys: { responseTime: 'durationMs' },
    customSuccessObject: (req: IncomingMessage, res: ServerResponse, line: Record<string, unknown>) => ({
      ...line,
      ...requestFields(req as RoutedRequest, res),
    }),
    genReqId: (req: IncomingMessage) => (req as RoutedRequest).id,
    autoLogging: { ignore: (req: IncomingMessage) => QUIET_PATHS.has((req.url ?? '').split('?')[0]) },
    // Serializers get the raw objects: pino-std-serializers' request view copies every header.
    wrapSerializers: false,
    serializers: {
      req: (req: RoutedRequest) => ({
        id: req.id,
        method: req.method,
        query: queryNames(req.originalUrl ?? req.url ?? ''),
      }),
      // The route is known only once routing is done: the response serializer runs when the request ends.
      res: (res: ServerResponse) => ({ statusCode: res.statusCode, ...routeOf(res.req as RoutedRequest | undefined) }),
      err: describeError,
      error: describeError,
    },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // A 5xx request line would carry a generated "failed with status code" error and its stack: the
    // cause is already logged, with the same request id, by whoever caught it.
    customErrorObject: (
      req: IncomingMessage,
      res: ServerResponse,
      _error: Error,
      { err: _err, ...line }: Record<string, unknown>,
    ) => ({ ...line, ...requestFields(req as RoutedRequest, res) }),
  };
  return {
    // Above info no request log is ever written, so pino-http's per-request child loggers would be pure
    // cost (about a sixth of a small request); errors are still logged, with their request id, by ApiExceptionFilter.
    ...(REQUEST_LOG_LEVELS.has(config.logLevel) ? {} : { forRoutes: [] }),
    pinoHttp: destination ? [options, destination] : options,
  };
}

/**
 * The fields every request line carries at its top level, for filtering without parsing `req`/`res`:
 * the request id, the caller's organization (authenticated requests only), the route template and
 * the status. (`durationMs` is pino-http's own.)
 */
function requestFields(req: RoutedRequest, res: ServerResponse) {
  return {
    requestId: req.id,
    organizationId: req.principal?.organizationId ?? null,
    route: routeOf(req).route,
    status: res.statusCode,
  };
}

/** The distinct query parameter names of a URL, without their values; undefined without a query. */
export function queryNames(url: string): string[] | undefined {
  const start = url.indexOf('?');
  if (start < 0) return undefined;
  const names = new Set<string>();
  for (const name of new URLSearchParams(url.slice(start + 1)).keys()) {
    if (QUERY_NAME.test(name)) names.add(name);
    if (names.size === MAX_QUERY_NAMES) break;
  }
  return [...names];
}

/**
 * The route a request matched and its path with only UUID parameters filled in; other parameter
 * values (a slug, a domain, a card file name) stay as `:name`. Unmatched: both null.
 */
export function routeOf(req: RoutedRequest | undefined): { route: string | null; path: string | null } {
  const route = req?.route?.path;
  if (typeof route !== 'string' || CATCH_ALL_ROUTE.test(route)) return { route: null, path: null };
  const params = req?.params ?? {};
  const path = route.replace(/:([A-Za-z0-9_$]+)/g, (token, name: string) => {
    const value = params[name];
    return typeof value === 'string' && CANONICAL_UUID.test(value) ? value : token;
  });
  return { route, path };
}
