import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { ResourceNotFoundError } from '../../common/errors/api-errors';
import { LimitsService } from '../../common/limits/limits.service';
import { CampaignsRepository } from './campaigns.repository';
import { NO_LINKS, toCampaignResponse, type CampaignResponse } from './dto/campaign.response';

/**
 * Campaigns (CONTRACT §3): names unique per organization ignoring case; create, rename and delete
 * count against the organization's link-mutation limit. Link counts stay 0 until links exist.
 */
@Injectable()
export class CampaignsService {
  constructor(
    private readonly campaigns: CampaignsRepository,
    private readonly limits: LimitsService,
  ) {}

  async list(organizationId: string): Promise<CampaignResponse[]> {
    const campaigns = await this.campaigns.listForOrganization(organizationId);
    return campaigns.map((campaign) => toCampaignResponse(campaign, NO_LINKS));
  }

  async create(organizationId: string, name: string): Promise<CampaignResponse> {
    await this.limits.chargeLinkMutation(organizationId);
    const now = new Date();
    const campaign = await this.campaigns.insert({ organizationId, id: uuidv7(), name, createdAt: now, updatedAt: now });
    return toCampaignResponse(campaign, NO_LINKS);
  }

  async rename(organizationId: string, id: string, name: string): Promise<CampaignResponse> {
    await this.limits.chargeLinkMutation(organizationId);
    const campaign = await this.campaigns.rename(organizationId, id, name);
    if (!campaign) throw new ResourceNotFoundError('campaign');
    return toCampaignResponse(campaign, NO_LINKS);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.limits.chargeLinkMutation(organizationId);
    if (!(await this.campaigns.delete(organizationId, id))) throw new ResourceNotFoundError('campaign');
  }
}
