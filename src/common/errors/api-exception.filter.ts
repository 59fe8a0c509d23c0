import {
  Catch,
  HttpException,
  Logger,
  NotFoundException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { AppConfigService } from '../../config/app-config';
import { isDependencyFailure } from './dependency-failure';
import { DomainError, rateLimitHeaders, UnavailableError } from './domain-errors';
import { sendDomainError } from './error-response';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

const CATCH_ALL = /^[{/]*\*/;
/** What a client is told to wait when PostgreSQL or Redis is down or too slow. */
const OUTAGE_RETRY_AFTER_SECONDS = 5;
/** The request-rate window (docs/api.md §8.1). */
const RATE_WINDOW_SECONDS = 60;

/**
 * Renders every error as docs/api.md §7 says: DomainErrors with their status, text and headers;
 * PostgreSQL or Redis down or too slow a 503 with Retry-After;
 * an unknown route 404 `Not Found`, or 405 when the path exists under another method; anything
 * unexpected a 500 that shows nothing of its cause (the cause is logged with the request id).
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfigService,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request & { id?: string }>();
    if (res.headersSent) return;
    // A route's own caching (share cards: public, max-age) is set before its handler runs; an error is never cached.
    res.setHeader('Cache-Control', 'no-store');
    // Refused before its body was read (401, 403, 429): the client may still be sending it.
    // Closing once the answer is out, rather than draining the rest to keep the connection alive,
    // means a large body ties up nothing.
    if (!req.complete) res.setHeader('Connection', 'close');
    if (exception instanceof DomainError) return sendDomainError(res, exception);
    if (exception instanceof NotFoundException) return this.sendRouteNotFound(req, res);
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      const status = exception.getStatus();
      res.status(status).json({ detail: STATUS_CODES[status] ?? 'Error' });
      return;
    }
    if (isDependencyFailure(exception)) {
      const { code, name } = exception as Error & { code?: string };
      this.logger.warn({ code: code ?? name, requestId: req.id }, 'Dependency unavailable');
      this.keepRateLimitFigures(res);
      return sendDomainError(res, new UnavailableError(OUTAGE_RETRY_AFTER_SECONDS));
    }
    // The `err` serializer (describeError) logs the type, code and frames, never the message: a
    // QueryFailedError carries the statement, its parameters and PostgreSQL's message quoting values.
    this.logger.error({ err: exception, requestId: req.id }, 'Unhandled error');
    res.status(500).json({ detail: 'Internal server error.' });
  }

  /**
   * SPEC §7 rule 2: a 503 carries X-RateLimit-*. The figures of this request's charge when the
   * request-rate guard made it (PostgreSQL failed later); else, Redis down or the key not yet known,
   * the configured limit with nothing remaining until a window from now.
   */
  private keepRateLimitFigures(res: Response): void {
    if (res.getHeader('X-RateLimit-Limit') !== undefined) return;
    const resetAt = Math.ceil(Date.now() / 1000) + RATE_WINDOW_SECONDS;
    const figures = rateLimitHeaders({
      limit: this.config.values.limits.requestsPerMinute,
      remaining: 0,
      resetAt,
      retryAfterSeconds: RATE_WINDOW_SECONDS,
    });
    for (const [header, value] of Object.entries(figures)) res.setHeader(header, value);
  }

  private sendRouteNotFound(req: Request, res: Response): void {
    const allowed = this.methodsFor(req.path);
    // A route of this method exists: the 404 came from its handler (e.g. a missing static file).
    if (allowed.length > 0 && !allowed.includes(req.method)) {
      res.setHeader('Allow', allowed.join(', '));
      res.status(405).json({ detail: 'Method Not Allowed' });
      return;
    }
    res.status(404).json({ detail: 'Not Found' });
  }

  /** The methods Express routes for this path; the router is the one source of what exists. */
  private methodsFor(path: string): string[] {
    const app = this.adapterHost.httpAdapter.getInstance<{ router?: { stack: RouterLayer[] } }>();
    const methods = new Set<string>();
    for (const layer of app.router?.stack ?? []) {
      // Catch-all routes are middleware mounts (request logging, metrics), not resources.
      if (!layer.route || CATCH_ALL.test(layer.route.path) || !layer.match(path)) continue;
      for (const [method, enabled] of Object.entries(layer.route.methods)) {
        if (enabled) methods.add(method.toUpperCase());
      }
    }
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}
