import { applyDecorators, Injectable, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { createHash } from 'node:crypto';
import { responseHeaders } from '../http/openapi-headers';
import { LimitsService } from './limits.service';
import type { RateLimitedRequest } from './rate-limit.guard';

/**
 * Polled job resources (Custom Link jobs, publish jobs): an ETag on every 200, `Retry-After` while
 * the job is not terminal, and 304 with no body for a matching `If-None-Match`, which gives back the
 * request-rate unit the poll was charged (docs/api.md §8.1: 304 replies are not counted).
 */
@Injectable()
export class ConditionalGet {
  constructor(private readonly limits: LimitsService) {}

  async reply<T>(
    req: RateLimitedRequest,
    res: Response,
    body: T,
    retryAfterSeconds: number | null,
  ): Promise<T | undefined> {
    const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32)}"`;
    res.setHeader('ETag', etag);
    if (retryAfterSeconds !== null) res.setHeader('Retry-After', String(retryAfterSeconds));
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch?.split(',').some((tag) => tag.trim() === etag)) {
      await this.limits.refundRequest(req.rateLimitCharge);
      res.status(304);
      return undefined;
    }
    return body;
  }
}

/** Documents a route answered through ConditionalGet: 200 with its ETag (Retry-After while running), or 304. */
export const ApiConditionalGet = (type: Type, retryAfter: string) =>
  applyDecorators(
    ApiOkResponse({
      type,
      description: `ETag; Retry-After ${retryAfter}.`,
      headers: responseHeaders(['ETag'], ['Retry-After']),
    }),
    ApiResponse({
      status: 304,
      description: 'Unchanged since If-None-Match (not counted against the request rate); no body.',
      headers: responseHeaders(['ETag'], ['Retry-After']),
    }),
  );
