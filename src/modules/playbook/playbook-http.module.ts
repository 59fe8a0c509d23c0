import { Module } from '@nestjs/common';
import { ConditionalGet } from '../../common/http/conditional-get';
import { AgentController } from './agent.controller';
import { PlaybookController } from './playbook.controller';
import { PlaybookModule } from './playbook.module';

/** The playbook and agent routes (API role only). */
@Module({ providers: [ConditionalGet], imports: [PlaybookModule], controllers: [PlaybookController, AgentController] })
export class PlaybookHttpModule {}
