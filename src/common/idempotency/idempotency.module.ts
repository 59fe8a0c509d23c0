import { Module } from '@nestjs/common';
import { RequestValidator } from '../validation/request-validator';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRecordsModule } from './idempotency-records.module';

/**
 * Idempotency records: read and written by the HTTP pipeline, purged by the maintenance worker.
 * @Idempotent() applies IdempotencyInterceptor in its controller's module, which imports this one.
 */
@Module({
  imports: [IdempotencyRecordsModule],
  providers: [IdempotencyInterceptor, RequestValidator],
  exports: [IdempotencyRecordsModule, IdempotencyInterceptor, RequestValidator],
})
export class IdempotencyModule {}
