import type { EntityManager } from 'typeorm';
import { definePort } from '../../common/wiring/port';

/** What the work of a job produced beyond its items: the card renders it asked for. */
export interface JobWork {
  rendersQueued: number;
  rendersSettled: number;
}

/** The work of jobs, as the module whose work jobs run reads it (it implements the port). */
export interface JobWorkFacts {
  /** By job id, for jobs of the organization (read in `tx` when given); a job whose work produced nothing may be absent. */
  of(organizationId: string, jobIds: string[], tx?: EntityManager): Promise<Map<string, JobWork>>;
  /** Among these jobs, of any organizations, the ids of those whose work is still pending. */
  pending(jobs: { organizationId: string; id: string }[]): Promise<Set<string>>;
}

export const JOB_WORK_FACTS = definePort<JobWorkFacts>('job work facts');
