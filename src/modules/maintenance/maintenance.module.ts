import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IdempotencyRepository } from '../../common/idempotency/idempotency.repository';
import { MaintenanceProcessor } from './jobs/maintenance.processor';
import { MAINTENANCE_QUEUE } from './jobs/maintenance.queue';

/** Worker-only: registered when APP_ROLE is worker or all. */
@Module({
  imports: [BullModule.registerQueue({ name: MAINTENANCE_QUEUE })],
  providers: [IdempotencyRepository, MaintenanceProcessor],
})
export class MaintenanceModule {}
