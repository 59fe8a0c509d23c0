import { Module } from '@nestjs/common';
import { CustomLinkJobsController } from './custom-link-jobs.controller';
import { CustomLinksController } from './custom-links.controller';
import { CustomLinksModule } from './custom-links.module';
import { EngagementController } from './engagement/engagement.controller';
import { PublicLinksController } from './public-links.controller';

/** The Custom Link, job and public link routes (API role only). */
@Module({ imports: [CustomLinksModule], controllers: [CustomLinksController, CustomLinkJobsController, PublicLinksController, EngagementController] })
export class CustomLinksHttpModule {}
