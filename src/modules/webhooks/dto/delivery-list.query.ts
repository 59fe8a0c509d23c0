import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { PaginationQuery } from '../../../common/pagination/pagination.query';
import { IsEnumList, ToCommaList } from '../../../common/validation/enum-list';
import { DELIVERY_STATUSES } from './webhook-delivery.responses';

/** GET .../deliveries: newest first, optionally of some statuses (comma list). */
export class DeliveryListQuery extends PaginationQuery {
  @ApiPropertyOptional({ type: String, description: 'Comma list of pending, succeeded, failed.', example: 'failed,pending' })
  @IsOptional()
  @ToCommaList()
  @IsEnumList(DELIVERY_STATUSES)
  status?: string[];
}
