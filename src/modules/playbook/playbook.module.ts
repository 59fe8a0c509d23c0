import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { PlaybookRepository } from './playbook.repository';
import { PlaybookService } from './playbook.service';

/** The playbook for every role (routes: PlaybookHttpModule); the agent module reads it through PlaybookService. */
@Module({
  imports: [IdempotencyRecordsModule],
  providers: [PlaybookRepository, PlaybookService],
  exports: [PlaybookService],
})
export class PlaybookModule {}
