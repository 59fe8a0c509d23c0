import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { IngestionController } from './ingestion.controller';
import { SessionsController } from './sessions.controller';
import { SessionsModule } from './sessions.module';

/** The session, transcript and ingestion routes (API role only). */
@Module({ imports: [SessionsModule, IdempotencyModule], controllers: [SessionsController, IngestionController] })
export class SessionsHttpModule {}
