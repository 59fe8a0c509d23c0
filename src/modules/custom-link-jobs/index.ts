export type { CancelledItem, ItemRow, JobRow, JobView } from './custom-link-jobs.repository';
export { jobLocation, JobEnvelopeResponse, JobResponse } from './dto/job.response';
export { JOB_HANDLERS, type ItemOutcome, type JobHandler } from './job-handlers';
export { JOB_WORK_FACTS, type JobWork, type JobWorkFacts } from './job-work-facts';
export { CustomLinkJobsHttpModule, CustomLinkJobsWorkerModule, CustomLinkJobsModule } from './custom-link-jobs.module';
export { CustomLinkJobsService } from './custom-link-jobs.service';
