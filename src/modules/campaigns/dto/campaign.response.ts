import { ApiNextCursor } from '../../../common/pagination/pagination.response';
import { ApiProperty } from '@nestjs/swagger';
import type { CampaignRow } from '../campaigns.repository';
import { ApiInteger } from '../../../common/http/api-integer';

/** Campaign (docs/api.md §2.9). */
export class CampaignResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiInteger({ description: 'Links filed in the campaign.' })
  customLinkCount: number;

  @ApiInteger({ description: 'Active links filed in the campaign.' })
  activeCustomLinkCount: number;
}

export class CampaignListResponse {
  @ApiProperty({ type: [CampaignResponse] }) campaigns: CampaignResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiNextCursor() nextCursor: string | null;
}

export interface CampaignLinkCounts {
  total: number;
  active: number;
}

export const NO_LINKS: CampaignLinkCounts = { total: 0, active: 0 };

export function toCampaignResponse(campaign: CampaignRow, counts: CampaignLinkCounts): CampaignResponse {
  return {
    id: campaign.id,
    name: campaign.name,
    createdAt: campaign.created_at.toISOString(),
    updatedAt: campaign.updated_at.toISOString(),
    customLinkCount: counts.total,
    activeCustomLinkCount: counts.active,
  };
}
