import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { InjectPort } from '../../common/wiring/port';
import { CustomLinkJobsRepository, type JobItemsRow, type JobView } from './custom-link-jobs.repository';
import { JOB_WORK_FACTS, type JobWork, type JobWorkFacts } from './job-work-facts';

const NO_WORK: JobWork = { rendersQueued: 0, rendersSettled: 0 };

/** Jobs as their responses and status rules see them: their rows and items, and what their work produced (JobWorkFacts). */
@Injectable()
export class JobViews {
  constructor(
    private readonly jobs: CustomLinkJobsRepository,
    @InjectPort(JOB_WORK_FACTS) private readonly work: JobWorkFacts,
  ) {}

  /** `tx`: as that transaction sees the job. */
  async find(organizationId: string, jobId: string, tx?: EntityManager): Promise<JobView | null> {
    const row = await this.jobs.view(organizationId, jobId, tx);
    return row ? (await this.of(organizationId, [row], tx))[0] : null;
  }

  /** The views of rows the repository read (JobItemsRow), in their order and with their other fields. */
  async of<R extends JobItemsRow>(organizationId: string, rows: R[], tx?: EntityManager): Promise<(R & JobView)[]> {
    const work = await this.work.of(
      organizationId,
      rows.map((row) => row.id),
      tx,
    );
    return rows.map((row) => {
      const { rendersQueued, rendersSettled } = work.get(row.id) ?? NO_WORK;
      return { ...row, renders_queued: rendersQueued, renders_settled: rendersSettled };
    });
  }
}
