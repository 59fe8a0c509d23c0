import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { JobLeasesModule } from '../../common/queue/job-leases';
import { JobReaperModule } from '../../common/queue/job-reaper';
import { ExportsModule } from './exports.module';
import { ExportRunner } from './jobs/export-runner.service';
import { EXPORTS_QUEUE } from './jobs/exports.queue';
import { ExportsProcessor } from './jobs/exports.processor';

/** Worker-only: writes export files and sweeps expired ones. */
@Module({
  imports: [ExportsModule, BullModule.registerQueue({ name: EXPORTS_QUEUE }), JobLeasesModule, JobReaperModule],
  providers: [ExportRunner, ExportsProcessor],
})
export class ExportsWorkerModule {}
