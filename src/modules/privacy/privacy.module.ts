import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { IdempotencyRecordsModule } from '../../common/idempotency/idempotency-records.module';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { CustomLinksModule } from '../custom-links';
import { EngagementModule } from '../engagement';
import { ExportsModule } from '../exports';
import { PeopleModule } from '../people';
import { SessionsModule } from '../sessions';
import { SuppressionsModule } from '../suppressions';
import { WebhooksModule } from '../webhooks';
import { ErasuresController } from './erasures.controller';
import { ErasureRunner } from './jobs/erasure-runner.service';
import { PRIVACY_QUEUE } from './jobs/privacy.queue';
import { PrivacyProcessor } from './jobs/privacy.processor';
import { PrivacyRepository } from './privacy.repository';
import { PrivacyService } from './privacy.service';
import { SubjectAccessService } from './subject-access.service';
import { SubjectsController } from './subjects.controller';

/**
 * Privacy (docs/api.md §18): erasure of a person everywhere, run as jobs, and the right of access.
 * The modules that own personal data erase and read it through what they export; the suppression
 * list is its own module, which ingestion and link creation read.
 */
@Module({
  imports: [BullModule.registerQueue({ name: PRIVACY_QUEUE }), IdempotencyRecordsModule],
  providers: [PrivacyRepository, PrivacyService],
  exports: [PrivacyRepository, PrivacyService],
})
export class PrivacyModule {}

/** The privacy routes (API role only). */
@Module({
  imports: [PrivacyModule, IdempotencyModule, SessionsModule, PeopleModule, CustomLinksModule, EngagementModule],
  controllers: [ErasuresController, SubjectsController],
  providers: [SubjectAccessService],
})
export class PrivacyHttpModule {}

/** Worker-only: runs erasures; erasures nobody runs come back through the reaper. */
@Module({
  imports: [
    PrivacyModule,
    BullModule.registerQueue({ name: PRIVACY_QUEUE }),
    JobLeasesModule,
    JobReaperModule,
    IdempotencyRecordsModule,
    PeopleModule,
    SessionsModule,
    CustomLinksModule,
    EngagementModule,
    ExportsModule,
    WebhooksModule,
    SuppressionsModule,
  ],
  providers: [ErasureRunner, PrivacyProcessor],
})
export class PrivacyWorkerModule {}
