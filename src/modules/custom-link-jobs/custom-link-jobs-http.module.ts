import { Module } from '@nestjs/common';
import { ConditionalGet } from '../../common/limits/conditional-get';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CustomLinkJobsController } from './custom-link-jobs.controller';
import { CustomLinkJobsModule } from './custom-link-jobs.module';

/** The job routes (API role only). */
@Module({
  providers: [ConditionalGet],
  imports: [CustomLinkJobsModule, IdempotencyModule],
  controllers: [CustomLinkJobsController],
})
export class CustomLinkJobsHttpModule {}
