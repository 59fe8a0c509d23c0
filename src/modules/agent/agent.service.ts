import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { v7 as uuidv7 } from 'uuid';
import { DataSource } from 'typeorm';
import { ConflictError, NotFoundError } from '../../common/errors/domain-errors';
import { IdempotencyRecorder } from '../../common/idempotency/idempotency-recorder';
import { JobLeases, type LeaseTerms } from '../../common/queue/job-leases';
import { enqueue } from '../../common/queue/job-options';
import type { LapsedJob } from '../../common/queue/job-reaper';
import { isoOrNull } from '../../common/validation/timestamps';
import { AppConfigService } from '../../config/app-config';
import { lockNames } from '../../common/database/advisory-locks';
import { agentLinks, PlaybookService } from '../playbook';
import { WebhookOutbox } from '../webhooks';
import { AgentRepository, type PublishJobRow } from './agent.repository';
import type { ConversationTestsRequest, PublishRequest } from './dto/agent.request';
import type { AgentResponse, ConversationTestsResponse, PublishJobResponse } from './dto/agent.response';
import { AGENT_PUBLISH_QUEUE, PUBLISH_VERSION, type PublishPayload } from './jobs/publish.queue';
import { failedTests, type ConversationTest } from './rules/conversation-tests';

const TERMINAL = new Set(['succeeded', 'failed']);
export const PUBLISH_POLL_SECONDS = 2;

/** Where a publish job is polled: the Location of the 202 that started it. */
export const publishJobLocation = (jobId: string) => `/api/v1/agent/publish-jobs/${jobId}`;

/**
 * Agent publishing (docs/api.md §4.7, §14.6): a publish job runs the conversation tests against the
 * exact requested version and then switches production in the same transaction that marks the job
 * succeeded, so a worker dying mid-run leaves production untouched and the rerun finishes the job.
 * A per-organization advisory lock runs one publish at a time; later ones wait their turn.
 */
@Injectable()
export class AgentService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(AGENT_PUBLISH_QUEUE) private readonly queue: Queue<PublishPayload>,
    private readonly playbook: PlaybookService,
    private readonly jobs: AgentRepository,
    private readonly config: AppConfigService,
    private readonly idempotency: IdempotencyRecorder,
    private readonly leases: JobLeases,
    private readonly webhooks: WebhookOutbox,
  ) {}

  async agent(organizationId: string): Promise<AgentResponse> {
    const agent = await this.playbook.agentState(organizationId);
    return {
      stagingVersion: agent.stagingVersion,
      productionVersion: agent.productionVersion,
      links: this.links(organizationId, agent.productionVersion),
    };
  }

  /** One overwrite, outside a transaction with its Idempotency-Key answer: run twice, it stores the same tests and answers the same. */
  async setTests(organizationId: string, body: ConversationTestsRequest): Promise<ConversationTestsResponse> {
    const tests: ConversationTest[] = body.tests.map((t) => ({
      name: t.name,
      sectionKey: t.sectionKey ?? null,
      mustContain: t.mustContain ?? [],
      mustNotContain: t.mustNotContain ?? [],
    }));
    await this.playbook.saveConversationTests(organizationId, tests);
    return { tests };
  }

  /** 202 job; an unknown version is a 409 (docs/api.md §14.6). The job is recorded with its Idempotency-Key answer. */
  async publish(organizationId: string, body: PublishRequest): Promise<PublishJobResponse> {
    if ((await this.playbook.versionSections(organizationId, body.version)) === null) throw new ConflictError();
    const job = await this.db.transaction(async (tx) => {
      const recorded = await this.jobs.insertPublishJob(organizationId, uuidv7(), body.version, tx);
      const { productionVersion } = await this.playbook.agentState(organizationId, tx);
      await this.idempotency.complete(tx, this.toResponse(organizationId, recorded, productionVersion), {
        location: publishJobLocation(recorded.id),
      });
      return recorded;
    });
    await enqueue(
      this.queue,
      PUBLISH_VERSION,
      { organizationId, jobId: job.id },
      job.id,
      this.config.values.timeouts.redisCommandMs,
    );
    return this.toResponse(organizationId, job, (await this.playbook.agentState(organizationId)).productionVersion);
  }

  async getJob(organizationId: string, jobId: string): Promise<PublishJobResponse> {
    const job = await this.jobs.publishJob(organizationId, jobId);
    if (!job) throw NotFoundError.inOrganization('Publish job');
    return this.toResponse(organizationId, job, (await this.playbook.agentState(organizationId)).productionVersion);
  }

  isRunning(job: PublishJobResponse): boolean {
    return !TERMINAL.has(job.status);
  }

  /**
   * The worker's run, under a lease renewed while it runs (waiting its turn included); safe to run
   * again after a crash, and alongside another run of the same job (the turn is a lock, and the job's
   * status is read again once it is held).
   */
  async run(organizationId: string, jobId: string): Promise<void> {
    if (!(await this.jobs.leasePublishJob(organizationId, jobId, this.leases.terms()))) return;
    await this.leases.hold(
      (lease) => this.jobs.leasePublishJob(organizationId, jobId, lease),
      () => this.evaluate(organizationId, jobId),
    );
  }

  /** Unfinished publish jobs whose lease lapsed, for the JobReaper (ReapableJobs.reclaimLapsed). */
  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return this.jobs.reclaimLapsed(lease, limit);
  }

  /** The conversation tests, then production switched with the job's success in one transaction. */
  private async evaluate(organizationId: string, jobId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockNames(tx, [`publish:${organizationId}`]);
      const job = await this.jobs.publishJob(organizationId, jobId, tx);
      if (!job || TERMINAL.has(job.status)) return;
      // Visible to pollers at once (its own short transaction), while this one holds the turn.
      await this.jobs.markPublishJob(this.db, organizationId, jobId, 'running');
      const agent = await this.playbook.agentState(organizationId, tx, true);
      const sections = (await this.playbook.versionSections(organizationId, job.requested_version, tx)) ?? [];
      const failed = failedTests(agent.conversationTests as ConversationTest[], sections);
      if (failed.length > 0) {
        const message = `Conversation tests failed: ${failed.slice(0, 10).join(', ')}${failed.length > 10 ? ` and ${failed.length - 10} more` : ''}.`;
        await this.jobs.markPublishJob(tx, organizationId, jobId, 'failed', {
          code: 'conversation_tests_failed',
          message: message.slice(0, 1000),
        });
      } else {
        await this.playbook.promote(tx, organizationId, job.requested_version);
        await this.jobs.markPublishJob(tx, organizationId, jobId, 'succeeded');
      }
      await this.webhooks.record(tx, organizationId, 'agent_publish_job.finished', async () =>
        this.toResponse(
          organizationId,
          (await this.jobs.publishJob(organizationId, jobId, tx))!,
          (await this.playbook.agentState(organizationId, tx)).productionVersion,
        ),
      );
    });
  }

  /** `links` are the agent's current ones; `productionLink` is present once this job succeeded. */
  private toResponse(organizationId: string, job: PublishJobRow, productionVersion: number | null): PublishJobResponse {
    const succeeded = job.status === 'succeeded';
    return {
      jobId: job.id,
      status: job.status,
      requestedVersion: job.requested_version,
      links: this.links(organizationId, productionVersion),
      createdAt: job.created_at.toISOString(),
      updatedAt: job.updated_at.toISOString(),
      errorCode: job.error_code,
      errorMessage: job.error_message,
      productionLink: succeeded ? `${this.config.values.agentBaseUrl}/live/${organizationId}` : null,
      completedAt: isoOrNull(job.completed_at),
    };
  }

  private links(organizationId: string, productionVersion: number | null) {
    return agentLinks(this.config.values.agentBaseUrl, organizationId, productionVersion);
  }
}
