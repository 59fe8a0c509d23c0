import { PaginationQuery, UpdatedSince } from '../../../common/pagination/pagination.query';

/** GET /api/v1/accounts: pages (offset or cursor) and the incremental sync filter. */
export class AccountsListQuery extends PaginationQuery {
  @UpdatedSince() updated_since?: Date;
}
