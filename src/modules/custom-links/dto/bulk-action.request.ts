import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, ValidateBy, ValidateIf } from 'class-validator';
import { isUuid } from '../../../common/validation/uuid-format';
import { IsUuidString, ToCanonicalUuid } from '../../../common/validation/validators';
import { ApiInteger } from '../../../common/http/api-integer';
import { ExpiredRedirectUrl, ExpiresAt, MaxHumanOpens } from './link-access.request';

export const BULK_ACTIONS = ['activate', 'deactivate', 'move', 'set_access'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** Body of POST /api/v1/custom-links/actions (docs/api.md §12.3). */
export class BulkActionRequest {
  @ApiProperty({ enum: BULK_ACTIONS })
  @IsDefined()
  @IsIn(BULK_ACTIONS)
  action: BulkAction;

  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: 500 })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsUuidString({ each: true })
  customLinkIds: string[];

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Required for move; null unfiles.',
  })
  @ValidateIf((body: BulkActionRequest) => body.action === 'move' || body.campaignId !== undefined)
  @ValidateBy({ name: 'isDefined', validator: { validate: (value) => value !== undefined } })
  @ValidateBy({ name: 'isUuid', validator: { validate: (value) => value === null || isUuid(value) } })
  @ToCanonicalUuid()
  campaignId?: string | null;

  /** set_access (docs/api.md §12.3): any subset of the three, each as on a link (§4.3); null clears. */
  @ExpiresAt() expiresAt?: Date | null;
  @MaxHumanOpens() maxHumanOpens?: number | null;
  @ExpiredRedirectUrl() expiredRedirectUrl?: string | null;
}

export class BulkActionResponse {
  @ApiProperty({ enum: BULK_ACTIONS }) action: string;
  @ApiInteger() affectedCount: number;
  @ApiProperty({ type: [String], format: 'uuid' }) customLinkIds: string[];
}
