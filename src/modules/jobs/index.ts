export type { CancelledItem, ItemRow, JobRow, JobView } from './custom-link-jobs.repository';
export { jobLocation, JobEnvelopeResponse, JobResponse } from './dto/job.response';
export { JobHandlers, type ItemOutcome, type JobHandler } from './job-handlers';
export { JobWorkFactsRegistry, type JobWorkFacts } from './job-work-facts';
export { JobsHttpModule } from './jobs-http.module';
export { JobsWorkerModule } from './jobs-worker.module';
export { JobsModule } from './jobs.module';
export { JobsService } from './jobs.service';
