import { PaginationQuery } from '../../../common/pagination/pagination.query';
import { UpdatedSince } from '../../../common/pagination/updated-since';

/** GET /api/v1/accounts: pages (offset or cursor) and the incremental sync filter. */
export class AccountsListQuery extends PaginationQuery {
  @UpdatedSince() updated_since?: Date;
}
