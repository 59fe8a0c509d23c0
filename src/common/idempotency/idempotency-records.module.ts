import { Module } from '@nestjs/common';
import { IdempotencyRecorder } from './idempotency-recorder';
import { IdempotencyRepository } from './idempotency.repository';

/** The records alone, for every role: services store their answer in their own transaction (IdempotencyRecorder). */
@Module({
  providers: [IdempotencyRepository, IdempotencyRecorder],
  exports: [IdempotencyRepository, IdempotencyRecorder],
})
export class IdempotencyRecordsModule {}
