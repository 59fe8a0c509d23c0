import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsTimestamp, ToTimestamp } from '../../../common/validation/timestamps';
import { IsUuidString } from '../../../common/validation/validators';

/** GET /api/v1/analytics/funnel: the link creation window (inclusive) and a campaign. */
export class FunnelQuery {
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @ToTimestamp()
  @IsTimestamp()
  from?: Date;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @ToTimestamp()
  @IsTimestamp()
  to?: Date;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuidString()
  campaign_id?: string;
}
