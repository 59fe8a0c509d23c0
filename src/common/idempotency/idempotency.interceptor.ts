import { Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Response } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { catchError, defer, finalize, from, mergeMap, of, switchMap, type Observable } from 'rxjs';
import { AppConfigService } from '../../config/app-config';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { canonicalJson } from '../canonical-json';
import { ConflictError, DomainError } from '../errors/domain-errors';
import { httpStatusOf } from '../errors/error-response';
import { startHeartbeat, type Heartbeat } from '../leases/heartbeat';
import { idempotencyConflicts, idempotencyReplays } from '../metrics/app-metrics';
import { errorBody } from '../errors/error-response';
import { RequestValidator } from '../validation/request-validator';
import { idempotencyClaims, type IdempotencyClaim } from './idempotency-recorder';
import { IDEMPOTENCY_KEY_HEADER, isValidIdempotencyKey } from '../validation/idempotency-key';
import { IdempotencyRepository, type IdempotencyScope, type StoredResponse } from './idempotency.repository';

/** Response headers that are part of the result and replayed with it. */
const REPLAYED_HEADERS = ['location', 'etag', 'retry-after'];

/**
 * Idempotency-Key on the routes marked @Idempotent(), which apply it. Input validation runs here,
 * after the key: a stored answer is replayed without re-running anything, and a 422 is stored like
 * any other 4xx (docs/api.md §10.3, §7.4). 5xx and 429 answers, and those not replayable (a refused
 * suppressed email, §18.3), release the key so the client can try again, unless the mutation already
 * committed its answer (IdempotencyRecorder).
 *
 * The claim is a lease owned by a random token and renewed every third of IDEMPOTENCY_LEASE_MS while
 * the request runs, so a slow request keeps its key; a retry takes the key over only once the lease
 * lapsed, which means its process died or lost the database for a whole lease.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly records: IdempotencyRepository,
    private readonly validator: RequestValidator,
    private readonly config: AppConfigService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.headers[IDEMPOTENCY_KEY_HEADER];
    // A malformed key is reported by validation; a request without one runs normally.
    if (typeof key !== 'string' || !isValidIdempotencyKey(key) || !req.principal) {
      return defer(() => {
        this.validator.validate(context);
        return next.handle();
      });
    }

    const claim: IdempotencyClaim = {
      scope: {
        organizationId: req.principal.organizationId,
        method: req.method,
        route: (req.route as { path?: string } | undefined)?.path ?? req.path,
        key,
      },
      token: randomUUID(),
      successStatus:
        (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ??
        (req.method === 'POST' ? 201 : 200),
    };
    const { scope, token } = claim;
    const fingerprint = createHash('sha256')
      .update(`${req.method} ${req.path}\n${canonicalJson(req.body ?? null)}`)
      .digest('hex');

    return from(this.claimOrReplay(scope, fingerprint, token)).pipe(
      switchMap((stored) => {
        if (stored) {
          res.status(stored.status);
          for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
          res.setHeader('Idempotent-Replayed', 'true');
          idempotencyReplays.inc();
          return of(stored.status === 204 ? undefined : stored.body);
        }
        const heartbeat = this.renewWhileRunning(scope, token);
        // The handler is started inside the claim's context, so the service's transaction finds it.
        const handle = defer(() =>
          idempotencyClaims.run(claim, () => {
            this.validator.validate(context);
            return next.handle();
          }),
        );
        return handle.pipe(
          mergeMap(async (body: unknown) => {
            await this.records.complete(scope, token, { status: res.statusCode, body, headers: pickHeaders(res) });
            return body;
          }),
          catchError(async (error: unknown) => {
            if (
              error instanceof DomainError &&
              httpStatusOf(error) < 500 &&
              error.kind !== 'limit_exceeded' &&
              error.replayable
            ) {
              // Unless the mutation committed its own answer before failing: that one stays.
              await this.records.complete(
                scope,
                token,
                { status: httpStatusOf(error), body: errorBody(error), headers: error.headers },
                true,
              );
            } else {
              await this.records.release(scope, token);
            }
            throw error;
          }),
          finalize(() => heartbeat.stop()),
        );
      }),
    );
  }

  /** Claims the key (null: run the request) or returns the stored response to replay; 409 otherwise. */
  private async claimOrReplay(
    scope: IdempotencyScope,
    fingerprint: string,
    token: string,
  ): Promise<StoredResponse | null> {
    // Two attempts: the holder of the key may release it between our claim and our read.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await this.records.claim(scope, fingerprint, token, this.config.values.idempotencyLeaseMs)) return null;
      const existing = await this.records.find(scope);
      if (!existing) continue;
      // A committed answer whose request is still running is not final yet: 409 like any request in flight.
      const answered = existing.state === 'completed' || (existing.state === 'committed' && existing.leaseLapsed);
      if (existing.fingerprint !== fingerprint || !answered || existing.responseStatus === null) throw conflict();
      return { status: existing.responseStatus, body: existing.responseBody, headers: existing.responseHeaders };
    }
    throw conflict();
  }

  private renewWhileRunning(scope: IdempotencyScope, token: string): Heartbeat {
    const leaseMs = this.config.values.idempotencyLeaseMs;
    // A lease lost while a renewal failed makes the mutation's commit a 409 (IdempotencyRecorder).
    return startHeartbeat(
      leaseMs,
      () => this.records.renew(scope, token, leaseMs),
      (err: unknown) => this.logger.warn({ err }, 'Idempotency lease renewal failed'),
    );
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

function conflict(): ConflictError {
  idempotencyConflicts.inc();
  return new ConflictError();
}
