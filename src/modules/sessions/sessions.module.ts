import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { PeopleModule } from '../people';
import { IngestionController } from './ingestion.controller';
import { IngestionService } from './ingestion.service';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

/** Sessions, transcripts and ingestion (API role). */
@Module({
  imports: [PeopleModule, IdempotencyModule],
  controllers: [SessionsController, IngestionController],
  providers: [SessionsRepository, SessionsService, IngestionService],
  exports: [IngestionService],
})
export class SessionsModule {}
