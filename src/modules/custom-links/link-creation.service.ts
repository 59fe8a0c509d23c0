import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, type EntityManager } from 'typeorm';
import { IdempotencyKeyRequiredError } from '../../common/errors/domain-errors';
import { IdempotencyRecorder } from '../../common/idempotency/idempotency-recorder';
import { LimitsService } from '../../common/limits/limits.service';
import { CountCache } from '../../common/pagination/count-cache';
import { ImplementsPort } from '../../common/wiring/port';
import { RequestValidationError, valueError } from '../../common/errors/validation-issue';
import { Clock } from '../../common/time/clock';
import { AppConfigService } from '../../config/app-config';
import { CampaignsService } from '../campaigns';
import {
  JOB_HANDLERS,
  jobLocation,
  CustomLinkJobsService,
  type CancelledItem,
  type ItemOutcome,
  type ItemRow,
  type JobHandler,
  type JobResponse,
  type JobRow,
  type JobView,
} from '../custom-link-jobs';
import { LinkFiling } from '../engagement';
import { SuppressionList } from '../suppressions';
import { ThumbnailRendersService } from '../thumbnails';
import { CustomLinksRepository, FIELD_COLUMNS, type LinkColumns } from './custom-links.repository';
import type { CreateLinkInput, CreateLinksRequest } from './dto/create-links.request';
import { LINK_TEXT_FIELDS } from './dto/link-fields.request';
import { linkUnits } from './link-limits';
import { LINK_LIST } from './link-list';
import { withAccountDomain } from './rules/link-account-domain';
import { defaultDisplayName, newSlug } from './rules/link-defaults';
import { accessColumnsOf } from './rules/link-access';

const needsRender = (input: { shareThumbnailUrl?: string | null }) => !input.shareThumbnailUrl;

/** The job types whose items are Custom Links: creation jobs and the card re-render jobs of PATCH. */
const LINK_JOB_TYPES = ['create', 'thumbnail'] as const;

/**
 * Link creation jobs (docs/api.md §12.5, §12.8): requests reserve units and record one item per
 * link with the link's id fixed up front; the jobs module runs the items in order, one transaction
 * each, through this handler, so a worker killed mid-job resumes where it stopped and every item
 * yields at most one link. An item inserts its link and queues the link's first card render
 * (thumbnails module).
 */
@Injectable()
@ImplementsPort(JOB_HANDLERS)
export class LinkCreationService implements JobHandler {
  readonly types = LINK_JOB_TYPES;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly jobs: CustomLinkJobsService,
    private readonly links: CustomLinksRepository,
    private readonly campaigns: CampaignsService,
    private readonly limits: LimitsService,
    private readonly thumbnails: ThumbnailRendersService,
    private readonly counts: CountCache,
    private readonly config: AppConfigService,
    private readonly idempotency: IdempotencyRecorder,
    private readonly suppressions: SuppressionList,
    private readonly filing: LinkFiling,
    private readonly clock: Clock,
  ) {}

  /** A batch naming a suppressed email (docs/api.md §18.3) is refused before any unit is reserved or anything recorded. */
  async create(
    organizationId: string,
    body: CreateLinksRequest,
    idempotencyKey: string | undefined,
  ): Promise<JobResponse> {
    await this.suppressions.refuseSuppressed(
      organizationId,
      body.links.map((link, index) => ({ loc: ['body', 'links', index, 'email'], email: link.email })),
    );
    this.refuseExpired(body);
    if (!idempotencyKey) throw new IdempotencyKeyRequiredError();
    await this.limits.chargeMutation(organizationId, this.config.values.limits.linkMutationsPerMinute);
    const campaignId =
      body.campaign?.id?.toLowerCase() ??
      (body.campaign?.name ? await this.campaigns.resolveForFiling(organizationId, body.campaign) : null);
    return this.enqueue(
      organizationId,
      body.links.map((input) => ({ input })),
      campaignId,
      null,
    );
  }

  /** A link is not created expired: an expiresAt not after now is refused at its item (docs/api.md §12.1). */
  private refuseExpired(body: CreateLinksRequest): void {
    const now = this.clock.now().getTime();
    const issues = body.links.flatMap((link, index) =>
      link.expiresAt instanceof Date && link.expiresAt.getTime() <= now
        ? [
            valueError(
              ['body', 'links', index, 'expiresAt'],
              link.expiresAt.toISOString(),
              'expiresAt must be in the future',
            ),
          ]
        : [],
    );
    if (issues.length > 0) throw new RequestValidationError(issues);
  }

  /** Each new item names the parent's item it re-runs; a second retry of that item fails on the unique key (409). */
  retry(organizationId: string, parent: JobView, items: ItemRow[]): Promise<JobResponse> {
    return this.enqueue(
      organizationId,
      items.map((item) => ({ input: item.input, retryOf: item.index })),
      parent.campaign_id,
      parent.id,
    );
  }

  /** Renders recorded before a crash may never have reached the queue. */
  async resume(organizationId: string, jobId: string): Promise<void> {
    await this.thumbnails.enqueue(organizationId, await this.thumbnails.queuedRendersOf(organizationId, jobId));
  }

  async runItem(tx: EntityManager, organizationId: string, job: JobRow, item: ItemRow): Promise<ItemOutcome> {
    const input = item.input as CreateLinkInput;
    if (job.campaign_id && !(await this.campaigns.exists(organizationId, job.campaign_id, tx))) {
      return {
        status: 'failed',
        error: { code: 'campaign_not_found', message: "Custom Link campaign not found for the key's organization." },
        after: () =>
          this.limits.refund(this.units(organizationId, 1, needsRender(input) ? 1 : 0), job.created_at.getTime()),
      };
    }
    // A new link waits for its first render from the start: the render is recorded after it (foreign key).
    const firstRender = needsRender(input) ? this.thumbnails.newRenderId() : null;
    const created = await this.links.insertIfAbsent(
      tx,
      organizationId,
      item.custom_link_id,
      this.columnsFor(input, job.campaign_id, job.id, firstRender),
    );
    if (created) await this.filing.figuresChanged(tx, organizationId, [{ before: null, after: created }]);
    const renderId = created ? firstRender : null;
    if (renderId) await this.thumbnails.queueFirst(tx, organizationId, item.custom_link_id, renderId, job.id);
    return {
      status: 'created',
      error: null,
      after: async () => {
        if (created) await this.counts.invalidate(organizationId, LINK_LIST);
        if (renderId) await this.thumbnails.enqueue(organizationId, [renderId]);
      },
    };
  }

  /**
   * Cancelled items give back their units; the job's queued renders are cancelled (their links show
   * it) and give back theirs.
   */
  async cancelled(
    tx: EntityManager,
    organizationId: string,
    job: JobRow,
    items: CancelledItem[],
  ): Promise<() => Promise<void>> {
    const cancelledRenderLinks = await this.thumbnails.cancelQueuedForJob(tx, organizationId, job.id);
    if (cancelledRenderLinks.length > 0)
      await this.links.applyToMany(tx, organizationId, cancelledRenderLinks, { thumbnail_status: 'cancelled' });
    const units = this.units(
      organizationId,
      items.length,
      items.filter((item) => needsRender(item.input)).length + cancelledRenderLinks.length,
    );
    return () => this.limits.refund(units, job.created_at.getTime());
  }

  /**
   * Reserves the units, records the job and its items with the request's answer (202 and the job as
   * recorded; Idempotency-Key), and queues it. The job's created_at is the instant the units were
   * reserved at: refunds of its items name it, so they go back to the windows that were charged. The answer is the job as recorded, not re-read after
   * queueing: a fast worker may already have finished it.
   */
  private async enqueue(
    organizationId: string,
    items: { input: object; retryOf?: number }[],
    campaignId: string | null,
    parentJobId: string | null,
  ): Promise<JobResponse> {
    const inputs = items.map((item) => item.input);
    const renderUnits = inputs.filter(needsRender).length;
    const reservedAt = new Date();
    await this.limits.reserveAllOrNone(this.units(organizationId, inputs.length, renderUnits), reservedAt.getTime());
    const jobId = uuidv7();
    const recorded = await this.db
      .transaction(async (tx) => {
        await this.jobs.record(tx, organizationId, {
          id: jobId,
          type: 'create',
          status: 'queued',
          campaignId,
          campaignName: null,
          parentJobId,
          renderUnits,
          createdAt: reservedAt,
          items: items.map(({ input, retryOf }) => ({
            linkId: uuidv7(),
            externalId: (input as CreateLinkInput).externalId ?? null,
            input,
            status: 'queued',
            retryOf,
          })),
        });
        const job = await this.jobs.get(organizationId, jobId, tx);
        await this.idempotency.complete(tx, { job }, { location: jobLocation(jobId) });
        return job;
      })
      .catch(async (error: unknown) => {
        await this.limits.refund(this.units(organizationId, inputs.length, renderUnits), reservedAt.getTime());
        throw error;
      });
    await this.jobs.enqueue(organizationId, jobId);
    return recorded;
  }

  private units(organizationId: string, creationUnits: number, renderUnits: number) {
    return linkUnits(this.config.values.limits, organizationId, creationUnits, renderUnits);
  }

  private columnsFor(
    input: CreateLinkInput,
    campaignId: string | null,
    jobId: string,
    renderId: string | null,
  ): LinkColumns {
    // Millisecond timestamps, as responses show them, so `created_to=<a link's createdAt>` includes it.
    const now = new Date();
    const columns: LinkColumns = {
      slug: newSlug(),
      display_name: input.displayName ?? defaultDisplayName(input),
      active: input.active ?? true,
      created_at: now,
      updated_at: now,
    };
    for (const field of LINK_TEXT_FIELDS) {
      if (field !== 'displayName' && input[field] !== undefined)
        Object.assign(columns, { [FIELD_COLUMNS[field]]: input[field] });
    }
    return withAccountDomain({
      ...columns,
      ...accessColumnsOf(input),
      external_id: input.externalId ?? null,
      campaign_id: campaignId,
      job_id: jobId,
      thumbnail_status: renderId ? 'queued' : 'provided',
      thumbnail_render_id: renderId,
    });
  }
}
