import { Module, type OnModuleInit } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { EngagementModule, TrackedSessionsRegistry } from '../engagement';
import { PeopleModule, PersonSessionsRegistry } from '../people';
import { IngestionService } from './ingestion.service';
import { SessionsOfPeople } from './sessions-of-people';
import { SessionsTracked } from './sessions-tracked';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { TranscriptQuota } from './transcript-quota';
import { WebhooksModule } from '../webhooks';
import { ExportsModule, ExportSources } from '../exports';
import { SessionExport } from './session-export';

/**
 * Sessions, transcripts and ingestion for every role (routes: SessionsHttpModule). People are
 * rolled up from sessions and engagement counts them: this module registers its sessions with both,
 * which do not depend on it, and its list with exports. A session's detail embeds what engagement observed of it.
 */
@Module({
  imports: [PeopleModule, EngagementModule, IdempotencyRecordsModule, WebhooksModule, ExportsModule],
  providers: [
    SessionsRepository,
    SessionsService,
    IngestionService,
    SessionsOfPeople,
    SessionsTracked,
    TranscriptQuota,
    SessionExport,
  ],
  exports: [SessionsService, IngestionService, TranscriptQuota],
})
export class SessionsModule implements OnModuleInit {
  constructor(
    private readonly personSessions: PersonSessionsRegistry,
    private readonly sessionsOfPeople: SessionsOfPeople,
    private readonly trackedSessions: TrackedSessionsRegistry,
    private readonly sessionsTracked: SessionsTracked,
    private readonly exportSources: ExportSources,
    private readonly sessionExport: SessionExport,
  ) {}

  onModuleInit(): void {
    this.personSessions.register(this.sessionsOfPeople);
    this.trackedSessions.register(this.sessionsTracked);
    this.exportSources.register(this.sessionExport);
  }
}
