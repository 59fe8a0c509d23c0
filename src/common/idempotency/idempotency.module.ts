import { Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';

/** Idempotency records: read and written by the HTTP pipeline, purged by the maintenance worker. */
@Module({
  providers: [IdempotencyRepository],
  exports: [IdempotencyRepository],
})
export class IdempotencyModule {}
