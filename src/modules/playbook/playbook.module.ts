import { Module } from '@nestjs/common';
import { PlaybookRepository } from './playbook.repository';
import { PlaybookService } from './playbook.service';

/** The playbook for every role (routes: PlaybookHttpModule); the agent module reads it through PlaybookService. */
@Module({
  providers: [PlaybookRepository, PlaybookService],
  exports: [PlaybookService],
})
export class PlaybookModule {}
