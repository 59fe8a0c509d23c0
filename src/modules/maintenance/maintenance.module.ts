import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CustomLinksModule } from '../custom-links';
import { RetentionModule } from '../retention';
import { SessionsModule } from '../sessions';
import { WebhooksModule } from '../webhooks';
import { MaintenanceProcessor } from './jobs/maintenance.processor';
import { MAINTENANCE_QUEUE } from './jobs/maintenance.queue';
import { MaintenanceRepository } from './maintenance.repository';

/** Worker-only: registered when APP_ROLE is worker or all. */
@Module({
  imports: [
    BullModule.registerQueue({ name: MAINTENANCE_QUEUE }),
    IdempotencyModule,
    RetentionModule,
    WebhooksModule,
    CustomLinksModule,
    SessionsModule,
  ],
  providers: [MaintenanceProcessor, MaintenanceRepository],
})
export class MaintenanceModule {}
