import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { NotFoundError } from '../../common/errors/domain-errors';
import { IdempotencyRecorder } from '../../common/idempotency/idempotency-recorder';
import { LimitsService } from '../../common/limits/limits.service';
import { Cursors, keysetOf } from '../../common/pagination/cursor';
import type { PaginationQuery } from '../../common/pagination/pagination.query';
import { InjectPort } from '../../common/wiring/port';
import { AppConfigService } from '../../config/app-config';
import { CAMPAIGN_LINKS, type CampaignLinks } from './campaign-links';
import { CampaignsRepository } from './campaigns.repository';
import {
  NO_LINKS,
  toCampaignResponse,
  type CampaignListResponse,
  type CampaignResponse,
} from './dto/campaign.response';

/** The campaigns list's name in its cursors' signature. */
const CAMPAIGN_LIST = 'campaigns';

/**
 * Campaigns (docs/api.md §12.4): names unique per organization ignoring case; create, rename and delete
 * count against the organization's link-mutation limit.
 */
@Injectable()
export class CampaignsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly campaigns: CampaignsRepository,
    @InjectPort(CAMPAIGN_LINKS) private readonly links: CampaignLinks,
    private readonly limits: LimitsService,
    private readonly config: AppConfigService,
    private readonly idempotency: IdempotencyRecorder,
    private readonly cursors: Cursors,
  ) {}

  async list(organizationId: string, query: PaginationQuery): Promise<CampaignListResponse> {
    const window = this.cursors.window(CAMPAIGN_LIST, organizationId, query);
    const { rows, total } = await this.campaigns.listPage(organizationId, window);
    const page = this.cursors.page(CAMPAIGN_LIST, organizationId, query, window, rows, keysetOf);
    const counts = await this.links.countsFor(
      organizationId,
      page.rows.map((c) => c.id),
    );
    const campaigns = page.rows.map((campaign) => toCampaignResponse(campaign, counts.get(campaign.id) ?? NO_LINKS));
    return { campaigns, total, limit: query.limit, offset: page.offset, nextCursor: page.nextCursor };
  }

  /** A campaign to file links in: `{id}` must be in the organization (null otherwise), `{name}` is reused or created. */
  async resolveForFiling(
    organizationId: string,
    ref: { id?: string; name?: string },
    tx?: EntityManager,
  ): Promise<string | null> {
    if (ref.id) return (await this.campaigns.exists(organizationId, ref.id, tx)) ? ref.id.toLowerCase() : null;
    if (ref.name?.trim()) return this.campaigns.findOrCreateByName(organizationId, ref.name.trim(), tx);
    return null;
  }

  async exists(organizationId: string, id: string, tx?: EntityManager): Promise<boolean> {
    return this.campaigns.exists(organizationId, id, tx);
  }

  /** Create, rename and delete commit with their Idempotency-Key answer (IdempotencyRecorder). */
  async create(organizationId: string, name: string): Promise<CampaignResponse> {
    await this.limits.chargeMutation(organizationId, this.config.values.limits.linkMutationsPerMinute);
    const now = new Date();
    return this.db.transaction(async (tx) => {
      const campaign = toCampaignResponse(
        await this.campaigns.insert(organizationId, { id: uuidv7(), name, created_at: now, updated_at: now }, tx),
        NO_LINKS,
      );
      await this.idempotency.complete(tx, campaign);
      return campaign;
    });
  }

  async rename(organizationId: string, id: string, name: string): Promise<CampaignResponse> {
    await this.limits.chargeMutation(organizationId, this.config.values.limits.linkMutationsPerMinute);
    // A rename leaves the counts alone; read before the transaction, which then holds nothing else.
    const counts = await this.links.countsFor(organizationId, [id]);
    return this.db.transaction(async (tx) => {
      const campaign = await this.campaigns.rename(organizationId, id, name, tx);
      if (!campaign) throw NotFoundError.inOrganization('Custom Link campaign');
      const renamed = toCampaignResponse(campaign, counts.get(id) ?? NO_LINKS);
      await this.idempotency.complete(tx, renamed);
      return renamed;
    });
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.limits.chargeMutation(organizationId, this.config.values.limits.linkMutationsPerMinute);
    await this.db.transaction(async (tx) => {
      // The links' key to their campaign takes no action on delete (Citus refuses SET NULL on part of a
      // key), so no link may be left in it. Links first (in id order, as the fold locks them); then the
      // campaign's row, which a link being filed into it holds (foreign-key check) and which, once
      // locked, no link can be filed into; then the links filed between the two.
      await this.links.unfiling(tx, organizationId, id);
      if (!(await this.campaigns.lock(organizationId, id, tx)))
        throw NotFoundError.inOrganization('Custom Link campaign');
      await this.links.unfiling(tx, organizationId, id);
      await this.campaigns.delete(organizationId, id, tx);
      await this.idempotency.complete(tx, undefined);
    });
    // Its links were unfiled in the same transaction.
    await this.links.unfiled(organizationId);
  }
}
