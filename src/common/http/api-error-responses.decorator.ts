import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorResponse, ValidationErrorResponse } from './error-response.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'The operation requires an Idempotency-Key header.',
  401: 'API key required or invalid.',
  403: 'API key does not include the required scope.',
  404: 'Resource absent for the organization.',
  409: 'The operation conflicts with current state or idempotency history.',
  413: 'Request body too large.',
  422: 'A path, query, header or body field failed validation.',
  429: 'Rate limit or organization quota exceeded (Retry-After, X-RateLimit-*).',
  503: 'The workflow is disabled or temporarily unavailable (Retry-After).',
};

/** Documents a route's error statuses with the shapes of docs/api.md §7. */
export function ApiErrorResponses(...statuses: number[]) {
  return applyDecorators(
    ApiExtraModels(ErrorResponse, ValidationErrorResponse),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status],
        schema: { $ref: getSchemaPath(status === 422 ? ValidationErrorResponse : ErrorResponse) },
      }),
    ),
  );
}
