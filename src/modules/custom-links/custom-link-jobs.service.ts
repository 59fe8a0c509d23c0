import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, type EntityManager } from 'typeorm';
import { ConflictError, IdempotencyKeyRequiredError, ResourceNotFoundError } from '../../common/errors/api-errors';
import { LimitsService } from '../../common/limits/limits.service';
import { COUNTED_LISTS, CountCache } from '../../common/pagination/count-cache';
import { CampaignsService } from '../campaigns';
import { CustomLinkJobsRepository, type ItemRow, type JobView } from './custom-link-jobs.repository';
import { CustomLinksRepository, FIELD_COLUMNS, type LinkColumns } from './custom-links.repository';
import type { CreateLinkInput, CreateLinksRequest } from './dto/create-links.request';
import { toJobItemResponse, toJobResponse, type JobItemListResponse, type JobListResponse, type JobResponse } from './dto/job.response';
import type { JobListQuery } from './dto/job-list.query';
import { LINK_TEXT_FIELDS } from './dto/link-fields.input';
import { JOB_OPTIONS } from '../../common/queue/job-options';
import { CREATE_LINKS, CUSTOM_LINK_JOBS_QUEUE, type CreateLinksPayload } from './jobs/queues';
import { JobSettlementService } from './job-settlement.service';
import { isTerminal } from './rules/job-status';
import { defaultDisplayName, newSlug } from './rules/link-defaults';
import { ThumbnailRendersService } from '../thumbnails';

const needsRender = (input: { shareThumbnailUrl?: string | null }) => !input.shareThumbnailUrl;

/**
 * Link creation jobs (docs/api.md §12.5, §12.8): requests reserve units and record one item per
 * link with the link's id fixed up front; the worker creates items in order, one transaction each,
 * so a worker killed mid-job resumes where it stopped and every item yields at most one link.
 */
@Injectable()
export class CustomLinkJobsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(CUSTOM_LINK_JOBS_QUEUE) private readonly queue: Queue<CreateLinksPayload>,
    private readonly jobs: CustomLinkJobsRepository,
    private readonly links: CustomLinksRepository,
    private readonly campaigns: CampaignsService,
    private readonly limits: LimitsService,
    private readonly thumbnails: ThumbnailRendersService,
    private readonly settlement: JobSettlementService,
    private readonly counts: CountCache,
  ) {}

  async create(organizationId: string, body: CreateLinksRequest, idempotencyKey: string | undefined): Promise<JobResponse> {
    if (!idempotencyKey) throw new IdempotencyKeyRequiredError();
    await this.limits.chargeLinkMutation(organizationId);
    const campaignId = body.campaign?.id?.toLowerCase() ?? (body.campaign?.name ? await this.campaigns.resolveForFiling(organizationId, body.campaign) : null);
    return this.enqueue(organizationId, body.links, campaignId, null);
  }

  /** Reserves the units, records the job and its items, and queues it. */
  private async enqueue(organizationId: string, inputs: object[], campaignId: string | null, parentJobId: string | null): Promise<JobResponse> {
    const renderUnits = inputs.filter(needsRender).length;
    await this.limits.reserveLinkUnits(organizationId, inputs.length, renderUnits);
    const jobId = uuidv7();
    try {
      await this.db.transaction((tx) =>
        this.jobs.insert(tx, organizationId, {
          id: jobId,
          type: 'create',
          status: 'queued',
          campaignId,
          campaignName: null,
          parentJobId,
          renderUnits,
          items: inputs.map((input) => ({ linkId: uuidv7(), externalId: (input as CreateLinkInput).externalId ?? null, input, status: 'queued' })),
        }),
      );
    } catch (error) {
      await this.limits.refundLinkUnits(organizationId, inputs.length, renderUnits);
      throw error;
    }
    await this.queue.add(CREATE_LINKS, { organizationId, jobId }, { ...JOB_OPTIONS, jobId });
    return this.get(organizationId, jobId);
  }

  async get(organizationId: string, jobId: string): Promise<JobResponse> {
    return toJobResponse(await this.viewOrThrow(organizationId, jobId));
  }

  async list(organizationId: string, query: JobListQuery): Promise<JobListResponse> {
    const [rows, total] = await Promise.all([this.jobs.listPage(organizationId, query), this.jobs.count(organizationId, query)]);
    return { jobs: rows.map(toJobResponse), total, limit: query.limit, offset: query.offset };
  }

  async items(organizationId: string, jobId: string, limit: number, offset: number): Promise<JobItemListResponse> {
    await this.viewOrThrow(organizationId, jobId);
    const { rows, total } = await this.jobs.items(organizationId, jobId, limit, offset);
    return { items: rows.map(toJobItemResponse), total, limit, offset };
  }

  /** Cancel: a queued job is cancelled at once; a processing one after the item in hand. */
  async cancel(organizationId: string, jobId: string): Promise<JobResponse> {
    await this.limits.chargeLinkMutation(organizationId);
    const refunds = await this.db.transaction(async (tx) => {
      const job = await this.jobs.lock(tx, organizationId, jobId);
      if (!job) throw new ResourceNotFoundError('customLinkJob');
      if (isTerminal(job.status)) throw new ConflictError();
      await this.jobs.requestCancel(tx, organizationId, jobId);
      return job.status === 'queued' ? this.cancelPending(tx, organizationId, jobId) : { creation: 0, render: 0 };
    });
    await this.limits.refundLinkUnits(organizationId, refunds.creation, refunds.render);
    await this.settlement.settleIfDone(organizationId, jobId);
    return this.get(organizationId, jobId);
  }

  /** A child job over the parent's failed and cancelled items (docs/api.md §12.5). */
  async retry(organizationId: string, jobId: string): Promise<JobResponse> {
    await this.limits.chargeLinkMutation(organizationId);
    const parent = await this.viewOrThrow(organizationId, jobId);
    const redo = isTerminal(parent.status) ? await this.jobs.unfinishedItems(organizationId, jobId) : [];
    if (redo.length === 0) throw new ConflictError();
    return this.enqueue(organizationId, redo.map((item) => item.input), parent.campaign_id, jobId);
  }

  /** The worker's run of a creation job; safe to run again after a crash or a retry. */
  async run(organizationId: string, jobId: string): Promise<void> {
    const job = await this.jobs.start(organizationId, jobId);
    if (!job) return;
    // Renders recorded before a crash may never have reached the queue.
    await this.thumbnails.enqueue(organizationId, await this.thumbnails.queuedRendersOf(organizationId, jobId));
    for (;;) {
      const step = await this.db.transaction((tx) => this.createNextItem(tx, organizationId, jobId));
      await this.limits.refundLinkUnits(organizationId, step.refund.creation, step.refund.render);
      if (step.created) await this.counts.invalidate(organizationId, COUNTED_LISTS.customLinks);
      if (step.renderId) await this.thumbnails.enqueue(organizationId, [step.renderId]);
      if (step.done) break;
    }
    await this.settlement.settleIfDone(organizationId, jobId);
  }

  private async createNextItem(tx: EntityManager, organizationId: string, jobId: string) {
    const none = { creation: 0, render: 0 };
    const job = await this.jobs.lock(tx, organizationId, jobId);
    if (!job || isTerminal(job.status)) return { done: true, created: false, renderId: null, refund: none };
    if (job.cancel_requested) return { done: true, created: false, renderId: null, refund: await this.cancelPending(tx, organizationId, jobId) };
    const item = await this.jobs.nextQueuedItem(tx, organizationId, jobId);
    if (!item) return { done: true, created: false, renderId: null, refund: none };
    const input = item.input as CreateLinkInput;
    if (job.campaign_id && !(await this.campaigns.exists(organizationId, job.campaign_id, tx))) {
      await this.jobs.settleItem(tx, organizationId, jobId, item.index, 'failed', { code: 'campaign_not_found', message: "Custom Link campaign not found for the key's organization." });
      return { done: false, created: false, renderId: null, refund: { creation: 1, render: needsRender(input) ? 1 : 0 } };
    }
    const created = await this.links.insertIfAbsent(tx, organizationId, item.custom_link_id, this.columnsFor(input, job.campaign_id, jobId));
    let renderId: string | null = null;
    if (created && needsRender(input)) renderId = await this.thumbnails.queue(tx, organizationId, item.custom_link_id, jobId);
    await this.jobs.settleItem(tx, organizationId, jobId, item.index, 'created', null);
    return { done: false, created, renderId, refund: none };
  }

  private columnsFor(input: CreateLinkInput, campaignId: string | null, jobId: string): LinkColumns {
    // Millisecond timestamps, as responses show them, so `created_to=<a link's createdAt>` includes it.
    const now = new Date();
    const columns: LinkColumns = { slug: newSlug(), display_name: input.displayName ?? defaultDisplayName(input), active: input.active ?? true, created_at: now, updated_at: now };
    for (const field of LINK_TEXT_FIELDS) {
      if (field !== 'displayName' && input[field] !== undefined) Object.assign(columns, { [FIELD_COLUMNS[field]]: input[field] });
    }
    return { ...columns, external_id: input.externalId ?? null, campaign_id: campaignId, job_id: jobId, thumbnail_status: needsRender(input) ? 'queued' : 'provided' };
  }

  /** Cancels what has not started: queued items and queued renders; returns the units to give back. */
  private async cancelPending(tx: EntityManager, organizationId: string, jobId: string): Promise<{ creation: number; render: number }> {
    const items: ItemRow[] = await this.jobs.cancelQueuedItems(tx, organizationId, jobId);
    const renders = await this.thumbnails.cancelQueuedForJob(tx, organizationId, jobId);
    return { creation: items.length, render: items.filter((item) => needsRender(item.input)).length + renders };
  }

  private async viewOrThrow(organizationId: string, jobId: string): Promise<JobView> {
    const job = await this.jobs.view(organizationId, jobId);
    if (!job) throw new ResourceNotFoundError('customLinkJob');
    return job;
  }
}
