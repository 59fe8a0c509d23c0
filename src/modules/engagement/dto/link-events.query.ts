import { PaginationQuery } from '../../../common/pagination/pagination.query';
import { EnumListFilter } from '../../../common/validation/enum-list';
import { EVENT_TYPES, type EventType } from '../rules/engagement-rollup';
import { IncludeFlag } from './include-flags';

/** GET /api/v1/custom-links/{link_id}/events filters (issue 20 point 4). */
export class LinkEventsQuery extends PaginationQuery {
  @IncludeFlag('Include bot events (each with its reason).') include_bots: boolean = false;

  @IncludeFlag("Include internal events (the organization's own traffic, each with its reason).")
  include_internal: boolean = false;

  @EnumListFilter(EVENT_TYPES, 'Event types.') type?: EventType[];
}
