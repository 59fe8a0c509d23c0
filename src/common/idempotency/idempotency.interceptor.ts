import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import { catchError, defer, from, mergeMap, of, switchMap, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { canonicalJson } from '../canonical-json';
import { ConflictError, DomainError } from '../errors/domain-errors';
import { httpStatusOf } from '../errors/error-response';
import { errorBody } from '../errors/error-response';
import { RequestValidator } from '../validation/request-validator';
import { IDEMPOTENCY_KEY_HEADER, isValidIdempotencyKey } from './idempotency-key';
import { IdempotencyRepository, type IdempotencyScope } from './idempotency.repository';

/** Response headers that are part of the result and replayed with it. */
const REPLAYED_HEADERS = ['location', 'etag', 'retry-after'];

/**
 * Idempotency-Key on the routes marked @Idempotent(), which apply it. Input validation runs here,
 * after the key: a stored answer is replayed without re-running anything, and a 422 is stored like
 * any other 4xx (docs/api.md §10.3, §7.4). 5xx and 429 answers release the key so the client can try again.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly validator: RequestValidator,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const handle = defer(() => {
      this.validator.validate(context);
      return next.handle();
    });
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.headers[IDEMPOTENCY_KEY_HEADER];
    // A malformed key is reported by validation; a request without one runs normally.
    if (typeof key !== 'string' || !isValidIdempotencyKey(key) || !req.principal) return handle;

    const scope: IdempotencyScope = {
      organizationId: req.principal.organizationId,
      method: req.method,
      route: (req.route as { path?: string } | undefined)?.path ?? req.path,
      key,
    };
    const fingerprint = createHash('sha256').update(`${req.method} ${req.path}\n${canonicalJson(req.body ?? null)}`).digest('hex');

    return from(this.claimOrReplay(scope, fingerprint)).pipe(
      switchMap((stored) => {
        if (stored) {
          res.status(stored.status);
          for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
          res.setHeader('Idempotent-Replayed', 'true');
          return of(stored.status === 204 ? undefined : stored.body);
        }
        return handle.pipe(
          mergeMap(async (body: unknown) => {
            await this.records.complete(scope, res.statusCode, body, pickHeaders(res));
            return body;
          }),
          catchError(async (error: unknown) => {
            if (error instanceof DomainError && httpStatusOf(error) < 500 && error.kind !== 'limit_exceeded') {
              await this.records.complete(scope, httpStatusOf(error), errorBody(error), error.headers);
            } else {
              await this.records.release(scope);
            }
            throw error;
          }),
        );
      }),
    );
  }

  /** Claims the key (null: run the request) or returns the stored response to replay; 409 otherwise. */
  private async claimOrReplay(scope: IdempotencyScope, fingerprint: string): Promise<{ status: number; body: unknown; headers: Record<string, string> } | null> {
    // Two attempts: the holder of the key may release it between our claim and our read.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await this.records.claim(scope, fingerprint)) return null;
      const existing = await this.records.find(scope);
      if (!existing) continue;
      if (existing.fingerprint !== fingerprint || existing.state !== 'completed' || existing.responseStatus === null) {
        throw new ConflictError();
      }
      return { status: existing.responseStatus, body: existing.responseBody, headers: existing.responseHeaders };
    }
    throw new ConflictError();
  }
}

function pickHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}
