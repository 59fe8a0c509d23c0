import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { ExportSources } from './export-sources';
import { ExportsRepository } from './exports.repository';
import { ExportsService } from './exports.service';
import { EXPORTS_QUEUE } from './jobs/exports.queue';

/**
 * Exports for every role (routes: ExportsHttpModule; files written by ExportsJobsModule). The
 * modules that own the exportable lists import it and register their ExportSource at start.
 */
@Module({
  imports: [BullModule.registerQueue({ name: EXPORTS_QUEUE })],
  providers: [ExportsRepository, ExportsService, ExportSources],
  exports: [ExportsRepository, ExportsService, ExportSources],
})
export class ExportsModule {}
