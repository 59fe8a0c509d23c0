import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { ConditionalGet } from '../../common/http/conditional-get';
import { AgentController } from './agent.controller';
import { PlaybookController } from './playbook.controller';
import { PlaybookModule } from './playbook.module';

/** The playbook and agent routes (API role only). */
@Module({ providers: [ConditionalGet], imports: [PlaybookModule, IdempotencyModule], controllers: [PlaybookController, AgentController] })
export class PlaybookHttpModule {}
