import { PaginationQuery } from '../../../common/pagination/pagination.query';
import { EnumListFilter } from '../../../common/validation/enum-list';
import { DELIVERY_STATUSES } from './webhook-delivery.response';

/** GET .../deliveries: newest first, optionally of some statuses (comma list). */
export class DeliveryListQuery extends PaginationQuery {
  @EnumListFilter(DELIVERY_STATUSES, 'Statuses.') status?: string[];
}
