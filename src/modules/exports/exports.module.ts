import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { ExportErasure } from './export-erasure';
import { EXPORT_SOURCES } from './export-sources';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';
import { EXPORTS_QUEUE } from './jobs/exports.queue';
import { ConditionalGet } from '../../common/limits/conditional-get';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { ExportsController } from './exports.controller';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { ExportRunner } from './jobs/export-runner.service';
import { ExportsProcessor } from './jobs/exports.processor';

/**
 * Exports for every role (routes: ExportsHttpModule; files written by ExportsWorkerModule). The
 * modules that own the exportable lists implement their ExportSource.
 */
@Module({
  imports: [BullModule.registerQueue({ name: EXPORTS_QUEUE }), EXPORT_SOURCES.module],
  providers: [ExportsRepository, ExportsService, ExportErasure],
  exports: [ExportsRepository, ExportsService, ExportErasure, EXPORT_SOURCES.module],
})
export class ExportsModule {}

/** The export routes (API role only). */
@Module({ providers: [ConditionalGet], imports: [ExportsModule, IdempotencyModule], controllers: [ExportsController] })
export class ExportsHttpModule {}

/** Worker-only: writes export files and sweeps expired ones. */
@Module({
  imports: [ExportsModule, BullModule.registerQueue({ name: EXPORTS_QUEUE }), JobLeasesModule, JobReaperModule],
  providers: [ExportRunner, ExportsProcessor],
})
export class ExportsWorkerModule {}
