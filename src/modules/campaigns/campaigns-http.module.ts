import { Module } from '@nestjs/common';
import { CampaignsController } from './campaigns.controller';
import { CampaignsModule } from './campaigns.module';

/** The campaign routes (API role only). */
@Module({ imports: [CampaignsModule], controllers: [CampaignsController] })
export class CampaignsHttpModule {}
