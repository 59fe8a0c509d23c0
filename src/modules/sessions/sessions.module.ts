import { Module } from '@nestjs/common';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { EngagementModule } from '../engagement';
import { PeopleModule } from '../people';
import { SuppressionsModule } from '../suppressions';
import { WebhooksModule } from '../webhooks';
import { EmailGramSamples } from './email-gram-samples';
import { IngestionService } from './ingestion.service';
import { SessionExport } from './session-export';
import { SessionDeletion } from './session-deletion';
import { SessionErasure } from './session-erasure';
import { SessionRetention } from './session-retention';
import { SessionsOfAccounts } from './sessions-of-accounts';
import { SessionsOfPeople } from './sessions-of-people';
import { SessionsOfSubject } from './sessions-of-subject';
import { SessionsTracked } from './sessions-tracked';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { TranscriptQuota } from './transcript-quota';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { IngestionController } from './ingestion.controller';
import { SessionsController } from './sessions.controller';

/**
 * Sessions, transcripts and ingestion for every role (routes: SessionsHttpModule). People are
 * rolled up from sessions, engagement counts them and accounts list them in their activity: this
 * module implements their ports (PersonSessions, TrackedSessions, AccountActivitySource; none depends
 * on it) and the exports' for its list. A
 * session shows its person's intent (people) and what engagement observed of it.
 */
@Module({
  imports: [PeopleModule, EngagementModule, IdempotencyRecordsModule, WebhooksModule, SuppressionsModule],
  providers: [
    SessionsRepository,
    SessionsService,
    IngestionService,
    SessionsOfPeople,
    SessionsOfAccounts,
    SessionsTracked,
    TranscriptQuota,
    SessionExport,
    SessionDeletion,
    SessionRetention,
    SessionErasure,
    SessionsOfSubject,
    EmailGramSamples,
  ],
  exports: [
    SessionsService,
    IngestionService,
    TranscriptQuota,
    SessionRetention,
    SessionErasure,
    SessionsOfSubject,
    EmailGramSamples,
  ],
})
export class SessionsModule {}

/** The session, transcript and ingestion routes (API role only). */
@Module({ imports: [SessionsModule, IdempotencyModule], controllers: [SessionsController, IngestionController] })
export class SessionsHttpModule {}
