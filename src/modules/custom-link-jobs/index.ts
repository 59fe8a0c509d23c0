export type { CancelledItem, ItemRow, JobRow, JobView } from './custom-link-jobs.repository';
export { jobLocation, JobEnvelopeResponse, JobResponse } from './dto/job.response';
export { JOB_HANDLERS, type ItemOutcome, type JobHandler } from './job-handlers';
export { JOB_WORK_FACTS, type JobWork, type JobWorkFacts } from './job-work-facts';
export { CustomLinkJobsHttpModule } from './custom-link-jobs-http.module';
export { CustomLinkJobsWorkerModule } from './custom-link-jobs-worker.module';
export { CustomLinkJobsModule } from './custom-link-jobs.module';
export { CustomLinkJobsService } from './custom-link-jobs.service';
