import { Module } from '@nestjs/common';
import { RequestValidator } from '../validation/request-validator';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';

/**
 * Idempotency records: read and written by the HTTP pipeline, purged by the maintenance worker.
 * @Idempotent() applies IdempotencyInterceptor in its controller's module, which imports this one.
 */
@Module({
  providers: [IdempotencyRepository, IdempotencyInterceptor, RequestValidator],
  exports: [IdempotencyRepository, IdempotencyInterceptor, RequestValidator],
})
export class IdempotencyModule {}
