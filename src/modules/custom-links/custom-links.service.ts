import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, type EntityManager } from 'typeorm';
import { IdempotencyKeyRequiredError, NotFoundError } from '../../common/errors/domain-errors';
import { IdempotencyRecorder } from '../../common/idempotency/idempotency-recorder';
import { LimitsService, type Reservation } from '../../common/limits/limits.service';
import { CountCache } from '../../common/pagination/count-cache';
import { Cursors, keysetOf } from '../../common/pagination/cursor';
import { RequestValidationError, valueError } from '../../common/errors/validation-issue';
import { Clock } from '../../common/time/clock';
import { AppConfigService } from '../../config/app-config';
import { CampaignsService } from '../campaigns';
import { CustomLinkJobsService } from '../custom-link-jobs';
import { FoldProgress, LinkFiling, type FiledLink } from '../engagement';
import { CustomLinksRepository, FIELD_COLUMNS, type CustomLinkRow, type LinkColumns } from './custom-links.repository';
import type { BulkActionRequest, BulkActionResponse } from './dto/bulk-action.request';
import type { CustomLinkListQuery } from './dto/custom-link-list.query';
import { toCustomLinkResponse, type CustomLinkListResponse, type CustomLinkResponse } from './dto/custom-link.response';
import { LINK_TEXT_FIELDS, THUMBNAIL_AFFECTING_FIELDS } from './dto/link-fields.request';
import type { UpdateLinkRequest } from './dto/update-link.request';
import type { UpdateLinkResponse } from './dto/update-link.response';
import { linkUnits } from './link-limits';
import { LINK_LIST } from './link-list';
import { LinkUrls } from './link-urls';
import { withAccountDomain } from './rules/link-account-domain';
import { accessColumnsOf, changedAccess, isCapped, isExpired } from './rules/link-access';
import { SuppressionList } from '../suppressions';
import { ThumbnailRendersService } from '../thumbnails';

/** The render unit a PATCH reserved (if any) and when: the job recording it is created at that instant. */
interface RenderReservation {
  at: Date;
  units: Reservation[];
}

/** Custom Links: reads, updates (with their thumbnail jobs) and bulk actions (docs/api.md §4.3, §12.2, §12.3). */
@Injectable()
export class CustomLinksService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly links: CustomLinksRepository,
    private readonly jobs: CustomLinkJobsService,
    private readonly campaigns: CampaignsService,
    private readonly limits: LimitsService,
    private readonly thumbnails: ThumbnailRendersService,
    private readonly config: AppConfigService,
    private readonly counts: CountCache,
    private readonly cursors: Cursors,
    private readonly idempotency: IdempotencyRecorder,
    private readonly urls: LinkUrls,
    private readonly progress: FoldProgress,
    private readonly filing: LinkFiling,
    private readonly suppressions: SuppressionList,
    private readonly clock: Clock,
  ) {}

  /**
   * The first `limit` links personalized for an email (their `email` equal to the key,
   * case-insensitively), newest first, as the link route answers them; `truncated` when more exist.
   */
  async ofEmailKey(
    organizationId: string,
    emailKey: string,
    limit: number,
  ): Promise<{ customLinks: CustomLinkResponse[]; truncated: boolean }> {
    const asOf = await this.progress.asOf(organizationId);
    const rows = await this.links.findByEmailKey(organizationId, emailKey, limit + 1);
    return {
      customLinks: rows.slice(0, limit).map((row) => this.toResponse(row, asOf)),
      truncated: rows.length > limit,
    };
  }

  async get(organizationId: string, id: string): Promise<CustomLinkResponse> {
    const asOf = await this.progress.asOf(organizationId);
    const link = await this.links.findById(organizationId, id);
    if (!link) throw NotFoundError.inOrganization('Custom Link');
    return this.toResponse(link, asOf);
  }

  async list(organizationId: string, query: CustomLinkListQuery): Promise<CustomLinkListResponse> {
    const window = this.cursors.window(LINK_LIST, organizationId, query);
    const asOf = await this.progress.asOf(organizationId);
    const now = this.clock.now();
    const [rows, total] = await Promise.all([
      this.links.listPage(organizationId, query, window, now),
      this.counts.count(LINK_LIST, organizationId, query, () => this.links.count(organizationId, query, now)),
    ]);
    const page = this.cursors.page(LINK_LIST, organizationId, query, window, rows, keysetOf);
    return {
      customLinks: page.rows.map((row) => this.toResponse(row, asOf)),
      total,
      limit: query.limit,
      offset: page.offset,
      nextCursor: page.nextCursor,
    };
  }

  /**
   * PATCH: only present fields change. A thumbnail-affecting field that changes value makes a
   * thumbnail job (and needs an Idempotency-Key); a render is queued unless the card is provided.
   * An `email` on the organization's suppression list is refused (docs/api.md §18.3).
   */
  async update(
    organizationId: string,
    id: string,
    body: UpdateLinkRequest,
    idempotencyKey: string | undefined,
  ): Promise<UpdateLinkResponse> {
    // Before the link is found: a suppressed email is refused as validation would refuse it (docs/api.md §7.4).
    await this.suppressions.refuseSuppressed(organizationId, [{ loc: ['body', 'email'], email: body.email }]);
    await this.limits.chargeMutation(organizationId, this.config.values.limits.linkMutationsPerMinute);
    const reserved: RenderReservation = { at: new Date(), units: [] };
    const outcome = await this.db
      .transaction(async (tx) => {
        const asOf = await this.progress.asOf(organizationId, tx);
        const changed = await this.change(tx, organizationId, id, body, idempotencyKey, reserved);
        // A thumbnail job may settle only after the commit: a replay after a failure may show it unsettled.
        await this.idempotency.complete(tx, {
          customLink: this.toResponse(changed.link, asOf),
          job: changed.jobId ? await this.jobs.find(organizationId, changed.jobId, tx) : null,
        });
        return { ...changed, asOf };
      })
      .catch(async (error: unknown) => {
        // The thumbnail job that would have held the render unit was rolled back.
        await this.limits.refund(reserved.units, reserved.at.getTime());
        throw error;
      });
    await this.counts.invalidate(organizationId, LINK_LIST);
    if (outcome.renderId) await this.thumbnails.enqueue(organizationId, [outcome.renderId]);
    if (outcome.jobId) await this.jobs.settleIfDone(organizationId, outcome.jobId);
    const job = outcome.jobId ? await this.jobs.find(organizationId, outcome.jobId) : null;
    return { customLink: this.toResponse(outcome.link, outcome.asOf), job };
  }

  /** The PATCH inside its transaction: the link as changed, and its thumbnail job and render if any. */
  private async change(
    tx: EntityManager,
    organizationId: string,
    id: string,
    body: UpdateLinkRequest,
    idempotencyKey: string | undefined,
    reserved: RenderReservation,
  ): Promise<{ link: CustomLinkRow; jobId: string | null; renderId: string | null }> {
    const link = await this.links.lock(tx, organizationId, id);
    if (!link) throw NotFoundError.inOrganization('Custom Link');
    const edited: LinkColumns = {};
    for (const field of LINK_TEXT_FIELDS) {
      const value = body[field];
      if (value !== undefined && value !== link[FIELD_COLUMNS[field]])
        Object.assign(edited, { [FIELD_COLUMNS[field]]: value });
    }
    const changes = withAccountDomain(edited, link);
    if (body.active !== undefined && body.active !== link.active) changes.active = body.active;
    Object.assign(changes, this.accessChanges(link, body));
    if (body.campaign === null) changes.campaign_id = null;
    else if (body.campaign) {
      const campaignId = await this.campaigns.resolveForFiling(organizationId, body.campaign, tx);
      if (!campaignId) throw NotFoundError.inOrganization('Custom Link campaign');
      changes.campaign_id = campaignId;
    }
    const thumbnailChanged = THUMBNAIL_AFFECTING_FIELDS.some((field) => FIELD_COLUMNS[field] in changes);
    if (!thumbnailChanged)
      return {
        link: Object.keys(changes).length > 0 ? await this.write(tx, link, changes) : link,
        jobId: null,
        renderId: null,
      };
    if (!idempotencyKey) throw new IdempotencyKeyRequiredError();

    const provided =
      body.shareThumbnailUrl !== undefined ? body.shareThumbnailUrl !== null : link.thumbnail_status === 'provided';
    if (!provided) {
      const units = linkUnits(this.config.values.limits, organizationId, 0, 1);
      await this.limits.reserveAllOrNone(units, reserved.at.getTime());
      reserved.units = units;
    }
    const jobId = uuidv7();
    await this.jobs.record(tx, organizationId, {
      id: jobId,
      type: 'thumbnail',
      status: 'processing',
      campaignId: null,
      campaignName: null,
      parentJobId: null,
      renderUnits: provided ? 0 : 1,
      createdAt: reserved.at,
      items: [{ linkId: id, externalId: link.external_id, input: {}, status: 'created' }],
    });
    // A provided card replaces any rendered one: a render still running must not overwrite it.
    if (provided) await this.thumbnails.withdraw(tx, organizationId, id);
    const renderId = provided ? null : await this.thumbnails.queue(tx, organizationId, id, jobId);
    const card: LinkColumns = renderId
      ? {
          thumbnail_status: 'queued',
          thumbnail_render_id: renderId,
          thumbnail_error_code: null,
          thumbnail_error_message: null,
        }
      : { thumbnail_status: 'provided' };
    return { link: await this.write(tx, link, { ...changes, ...card }), jobId, renderId };
  }

  /**
   * The access fields that change value; a link no longer expired nor capped after them forgets it
   * was (access_closed_at), so that closing again is announced again (docs/DECISIONS.md).
   */
  private accessChanges(link: CustomLinkRow, body: UpdateLinkRequest): LinkColumns {
    const changed: LinkColumns = changedAccess(accessColumnsOf(body), link);
    if (Object.keys(changed).length === 0 || link.access_closed_at === null) return changed;
    const after = { ...link, ...changed };
    return isExpired(after, this.clock.now()) || isCapped(after) ? changed : { ...changed, access_closed_at: null };
  }

  /** Writes a locked link's changes, then its campaigns' figures; a new campaign or account domain files its events anew. */
  private async write(tx: EntityManager, link: CustomLinkRow, columns: LinkColumns): Promise<CustomLinkRow> {
    const written = await this.links.update(tx, link.organization_id, link.id, columns);
    await this.filing.figuresChanged(tx, link.organization_id, [{ before: link, after: written }]);
    if ('campaign_id' in columns || 'account_domain' in columns)
      await this.filing.moved(tx, link.organization_id, [filingOf(link)]);
    return written;
  }

  /** activate / deactivate / move / set_access in one statement; ids of other organizations are ignored. */
  async bulk(organizationId: string, body: BulkActionRequest): Promise<BulkActionResponse> {
    let columns: LinkColumns;
    const access = accessColumnsOf(body);
    if (body.action === 'set_access') {
      if (Object.keys(access).length === 0)
        throw new RequestValidationError([
          valueError(['body'], body, 'set_access needs at least one of expiresAt, maxHumanOpens, expiredRedirectUrl'),
        ]);
      columns = {};
    } else if (body.action === 'move') {
      const campaignId = body.campaignId ?? null;
      if (campaignId && !(await this.campaigns.exists(organizationId, campaignId))) {
        throw new RequestValidationError([
          valueError(['body', 'campaignId'], body.campaignId, "campaign not found for the key's organization"),
        ]);
      }
      columns = { campaign_id: campaignId?.toLowerCase() ?? null };
    } else {
      columns = { active: body.action === 'activate' };
    }
    await this.limits.chargeMutation(organizationId, this.config.values.limits.linkMutationsPerMinute);
    const ids = [...new Set(body.customLinkIds.map((id) => id.toLowerCase()))];
    const response = await this.db.transaction(async (tx) => {
      // The links locked in id order (as the fold does), then their campaigns' figures in campaign
      // order, kept after the write; a move files their events anew.
      const before = await this.links.lockAll(tx, organizationId, ids);
      const campaigns = [...before.map((link) => link.campaign_id), columns.campaign_id ?? null];
      await this.filing.lockFigures(tx, organizationId, campaigns);
      let affected: string[];
      if (body.action === 'set_access') {
        // The access fields are none of a campaign's figures' inputs.
        affected = await this.links.applyAccess(tx, organizationId, ids, access, this.clock.now());
      } else {
        const written = await this.links.applyToMany(
          tx,
          organizationId,
          before.map((link) => link.id),
          columns,
        );
        const was = new Map(before.map((link) => [link.id, link]));
        await this.filing.figuresChanged(
          tx,
          organizationId,
          written.map((after) => ({ before: was.get(after.id) ?? null, after })),
        );
        affected = written.map((link) => link.id);
      }
      if ('campaign_id' in columns) await this.filing.moved(tx, organizationId, before.map(filingOf));
      const applied: BulkActionResponse = {
        action: body.action,
        affectedCount: affected.length,
        customLinkIds: affected,
      };
      await this.idempotency.complete(tx, applied);
      return applied;
    });
    await this.counts.invalidate(organizationId, LINK_LIST);
    return response;
  }

  private toResponse(row: CustomLinkRow, asOf: Date): CustomLinkResponse {
    return toCustomLinkResponse(row, this.urls, asOf, this.clock.now());
  }
}

/** Where a link's events are filed (its campaign and account domain), as the row says. */
function filingOf(link: Pick<CustomLinkRow, 'id' | 'campaign_id' | 'account_domain'>): FiledLink {
  return { linkId: link.id, campaignId: link.campaign_id, accountDomain: link.account_domain };
}
