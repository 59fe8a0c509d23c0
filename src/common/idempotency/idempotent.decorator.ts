import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IDEMPOTENT } from '../validation/idempotency-key';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * The mutation honours `Idempotency-Key` (docs/api.md §10): a repeat with the same key and request
 * replays the stored response. `required` only documents it; the service decides when a missing
 * key is an error (its 400 comes after 404 in the order of docs/api.md §7.4).
 */
export function Idempotent(options: { required?: boolean } = {}) {
  return applyDecorators(
    SetMetadata(IDEMPOTENT, true),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: options.required ?? false,
      description: 'Replays the stored response of an earlier request with the same key (24 h); 1..255 characters.',
    }),
  );
}
