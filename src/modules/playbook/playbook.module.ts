import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { PlaybookRepository } from './playbook.repository';
import { PlaybookService } from './playbook.service';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { PlaybookController } from './playbook.controller';

/** The playbook for every role (routes: PlaybookHttpModule); the agent module reads it through PlaybookService. */
@Module({
  imports: [IdempotencyRecordsModule],
  providers: [PlaybookRepository, PlaybookService],
  exports: [PlaybookService],
})
export class PlaybookModule {}

/** The playbook routes (API role only). */
@Module({ imports: [PlaybookModule, IdempotencyModule], controllers: [PlaybookController] })
export class PlaybookHttpModule {}
