import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { TimestampInput } from '../../../common/validation/timestamps';
import { IsUuidString } from '../../../common/validation/validators';

/** GET /api/v1/analytics/funnel: the link creation window (inclusive) and a campaign. */
export class FunnelQuery {
  @TimestampInput() from?: Date;

  @TimestampInput() to?: Date;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuidString()
  campaign_id?: string;
}
