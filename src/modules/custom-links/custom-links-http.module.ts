import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { ConditionalGet } from '../../common/http/conditional-get';
import { CustomLinkJobsController } from './custom-link-jobs.controller';
import { CustomLinksController } from './custom-links.controller';
import { CustomLinksModule } from './custom-links.module';
import { PublicLinksController } from './public-links.controller';

/** The Custom Link, job and public link routes (API role only). */
@Module({ providers: [ConditionalGet], imports: [CustomLinksModule, IdempotencyModule], controllers: [CustomLinksController, CustomLinkJobsController, PublicLinksController] })
export class CustomLinksHttpModule {}
