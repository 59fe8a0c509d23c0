import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { PaginationQuery } from '../../../common/pagination/pagination.query';
import { ToBoolean } from '../../../common/validation/coercion';
import { EnumListFilter } from '../../../common/validation/enum-list';
import { EVENT_TYPES, type EventType } from '../rules/engagement-rollup';

/** GET /api/v1/custom-links/{link_id}/events filters (issue 20 point 4). */
export class LinkEventsQuery extends PaginationQuery {
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Include bot events (each with its reason).' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  include_bots: boolean = false;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: "Include internal events (the organization's own traffic, each with its reason).",
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  include_internal: boolean = false;

  @EnumListFilter(EVENT_TYPES, 'Event types.') type?: EventType[];
}
