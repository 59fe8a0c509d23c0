import { Module } from '@nestjs/common';
import { CustomLinksModule } from '../custom-links';
import { EngagementModule } from '../engagement';
import { PeopleModule } from '../people';
import { SessionsModule } from '../sessions';
import { SubjectAccessService } from './subject-access.service';
import { SubjectsController } from './subjects.controller';

/**
 * Privacy (docs/api.md §18): erasure of a person everywhere, run as jobs, and the right of access.
 * The modules that own personal data erase and read it through what they export.
 */
@Module({})
export class PrivacyModule {}

/** The privacy routes (API role only). */
@Module({
  imports: [PrivacyModule, SessionsModule, PeopleModule, CustomLinksModule, EngagementModule],
  controllers: [SubjectsController],
  providers: [SubjectAccessService],
})
export class PrivacyHttpModule {}

/** Worker-only: runs erasures. */
@Module({ imports: [PrivacyModule] })
export class PrivacyWorkerModule {}
