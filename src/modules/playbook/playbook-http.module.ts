import { Module } from '@nestjs/common';
import { AgentController } from './agent.controller';
import { PlaybookController } from './playbook.controller';
import { PlaybookModule } from './playbook.module';

/** The playbook and agent routes (API role only). */
@Module({ imports: [PlaybookModule], controllers: [PlaybookController, AgentController] })
export class PlaybookHttpModule {}
