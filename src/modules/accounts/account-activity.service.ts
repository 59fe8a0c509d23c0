import { Injectable } from '@nestjs/common';
import type { Keyset } from '../../common/pagination/cursor';
import { Cursors } from '../../common/pagination/cursor';
import type { CursorPageQuery } from '../../common/pagination/pagination.query';
import { InjectPort, type Keyed } from '../../common/wiring/port';
import {
  ACCOUNT_ACTIVITY,
  ACTIVITY_KINDS,
  boundAfter,
  type AccountActivitySource,
  type ActivityKind,
  type ActivityPosition,
  type ActivityRow,
} from './account-activity';
import { AccountsService, domainOfParam } from './accounts.service';
import { toActivityItemResponse, type AccountActivityListResponse } from './dto/account-activity.response';

/** A source's row with its kind and the instant the kinds are merged on. */
interface ActivityItem extends ActivityRow {
  kind: ActivityKind;
  instant: bigint;
}

const keysetOf = (item: ActivityItem): Keyset => [item.at, item.kind, item.key];

/** Newest first; at one instant in the order of ACTIVITY_KINDS (a stable sort keeps each source's own order). */
const newestFirst = (a: ActivityItem, b: ActivityItem) =>
  a.instant === b.instant
    ? ACTIVITY_KINDS.indexOf(a.kind) - ACTIVITY_KINDS.indexOf(b.kind)
    : a.instant > b.instant
      ? -1
      : 1;

/**
 * GET /accounts/{domain}/activity (docs/api.md §4.2): the sessions of the account's people and the
 * human, external events of its links, newest first, paged by signed cursor. Each kind is read by its
 * owner as a keyset page after the cursor's position (ACCOUNT_ACTIVITY), `limit + 1` items at most;
 * the page is the first `limit` of both merged (the one after them says whether a next page exists).
 */
@Injectable()
export class AccountActivityService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly cursors: Cursors,
    @InjectPort(ACCOUNT_ACTIVITY) private readonly sources: Keyed<ActivityKind, AccountActivitySource>,
  ) {}

  /** 422 for a bad domain or cursor (validation comes first, docs/api.md §7.4), then 404 for no such account. */
  async activity(
    organizationId: string,
    rawDomain: string,
    query: CursorPageQuery,
  ): Promise<AccountActivityListResponse> {
    const domain = domainOfParam(rawDomain);
    // The account is in the list's name: a cursor of one account's activity is refused on another's.
    const list = `account-activity:${domain}`;
    const window = this.cursors.window(list, organizationId, query);
    const after = window.after === null ? null : positionOf(window.after);
    const [, ...pages] = await Promise.all([
      this.accounts.find(organizationId, domain),
      ...this.sources.all().map(async (source) =>
        (
          await source.page(organizationId, {
            domain,
            bound: after && boundAfter(source.kind, after),
            limit: window.limit,
          })
        ).map((row): ActivityItem => ({ ...row, kind: source.kind, instant: BigInt(row.micros) })),
      ),
    ]);
    const merged = pages.flat().sort(newestFirst).slice(0, window.limit);
    const page = this.cursors.page(list, organizationId, query, window, merged, keysetOf);
    return { activity: page.rows.map(toActivityItemResponse), limit: query.limit, nextCursor: page.nextCursor };
  }
}

/** A cursor's keyset as the position it names (the signature vouches for its shape). */
function positionOf([at, kind, key]: Keyset): ActivityPosition {
  return { at: at as string, kind: kind as ActivityKind, key: key as string };
}
