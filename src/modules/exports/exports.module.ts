import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { EXPORT_SOURCES } from './export-sources';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';
import { EXPORTS_QUEUE } from './jobs/exports.queue';

/**
 * Exports for every role (routes: ExportsHttpModule; files written by ExportsWorkerModule). The
 * modules that own the exportable lists implement their ExportSource.
 */
@Module({
  imports: [BullModule.registerQueue({ name: EXPORTS_QUEUE }), EXPORT_SOURCES.module],
  providers: [ExportsRepository, ExportsService],
  exports: [ExportsRepository, ExportsService, EXPORT_SOURCES.module],
})
export class ExportsModule {}
