import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CountCache } from '../../common/pagination/count-cache';
import { PeopleModule } from '../people/people.module';
import { IngestionController } from './ingestion.controller';
import { IngestionService } from './ingestion.service';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

/** Sessions, transcripts and ingestion (API role). */
@Module({
  imports: [PeopleModule, IdempotencyModule],
  controllers: [SessionsController, IngestionController],
  providers: [SessionsRepository, SessionsService, IngestionService, CountCache],
  exports: [IngestionService],
})
export class SessionsModule {}
