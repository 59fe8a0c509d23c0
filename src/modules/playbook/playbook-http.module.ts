import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { PlaybookController } from './playbook.controller';
import { PlaybookModule } from './playbook.module';

/** The playbook routes (API role only). */
@Module({ imports: [PlaybookModule, IdempotencyModule], controllers: [PlaybookController] })
export class PlaybookHttpModule {}
