import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppConfigService } from '../../config/app-config';
import { canonicalJson } from '../canonical-json';
import { RequestValidationError, valueError } from '../errors/validation-issue';
import type { PaginationQuery } from './pagination.query';

/** What a page is asked with: a limit, and a cursor or (on the lists that take one) an offset. */
export type PageQuery = Pick<PaginationQuery, 'limit' | 'cursor'> &
  Partial<Pick<PaginationQuery, 'offset' | 'offsetGiven'>>;

/** The key of the last row of a page, each value as PostgreSQL's text of it (timestamps keep their microseconds). */
export type Keyset = (string | null)[];

/**
 * Which rows a repository reads: `limit` of them (one more than the page: the extra one tells
 * whether a next page exists), after the keyset `after` (when given), skipping `skip` rows.
 * `offset` is the page's offset as the response reports it.
 */
export interface PageWindow {
  limit: number;
  skip: number;
  after: Keyset | null;
  offset: number;
}

/** A page as a service answers it: its rows, the offset they start at, and the cursor of the next page. */
export interface Page<T> {
  rows: T[];
  offset: number;
  nextCursor: string | null;
}

interface CursorBody {
  /** The keyset of the last row handed out. */
  k: Keyset;
  /** How many rows came before the next page when the cursor was made (its `offset`). */
  o: number;
}

const INVALID = 'the cursor is not one this list returned for these parameters';

/**
 * Opaque, signed list cursors (keyset pagination). A cursor is the last row's sort key and the rows
 * skipped so far, signed with CURSOR_SECRET over the list's name, the organization and every query
 * parameter but the page ones, so an edited cursor, or one minted for another organization, list or
 * filter, is refused (422 at ["query","cursor"]). Keyset pages never skip or repeat a row that
 * existed when the walk started, whatever is inserted meanwhile (offsets would shift).
 */
@Injectable()
export class Cursors {
  constructor(private readonly config: AppConfigService) {}

  /** The window a list reads for this query: from the cursor's position, or from its offset. */
  window(list: string, organizationId: string, query: PageQuery): PageWindow {
    if (query.cursor === undefined) {
      const offset = query.offset ?? 0;
      return { limit: query.limit + 1, skip: offset, after: null, offset };
    }
    const body = this.open(list, organizationId, query, query.cursor);
    return { limit: query.limit + 1, skip: 0, after: body.k, offset: body.o };
  }

  /** The page out of the rows read for `window`: the extra row, if read, makes a cursor from the last row kept. */
  page<T>(
    list: string,
    organizationId: string,
    query: PageQuery,
    window: PageWindow,
    rows: T[],
    keysetOf: (row: T) => Keyset,
  ): Page<T> {
    const kept = rows.slice(0, window.limit - 1);
    const more = rows.length >= window.limit && kept.length > 0;
    const nextCursor = more
      ? this.seal(list, organizationId, query, { k: keysetOf(kept[kept.length - 1]), o: window.offset + kept.length })
      : null;
    return { rows: kept, offset: window.offset, nextCursor };
  }

  private seal(list: string, organizationId: string, query: PageQuery, body: CursorBody): string {
    const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${payload}.${this.sign(list, organizationId, query, payload)}`;
  }

  private open(list: string, organizationId: string, query: PageQuery, cursor: string): CursorBody {
    const [payload, signature, ...rest] = cursor.split('.');
    const expected = Buffer.from(this.sign(list, organizationId, query, payload ?? ''));
    const given = Buffer.from(signature ?? '');
    if (rest.length > 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid(cursor);
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString()) as CursorBody;
    return body;
  }

  private sign(list: string, organizationId: string, query: PageQuery, payload: string): string {
    const { limit: _limit, offset: _offset, cursor: _cursor, offsetGiven: _given, ...parameters } = query;
    return createHmac('sha256', this.config.values.cursorSecret)
      .update(`${list}\n${organizationId}\n${canonicalJson(parameters)}\n${payload}`)
      .digest('base64url');
  }
}

function invalid(cursor: string): RequestValidationError {
  return new RequestValidationError([valueError(['query', 'cursor'], cursor, INVALID)]);
}

/** One column of a list's sort key, in ORDER BY order; the last is the row's unique id. */
export interface KeyColumn {
  /** The column as the page query names it (`s.start_time`). */
  sql: string;
  /** Its PostgreSQL type, to read the cursor's text back (`timestamptz`, `uuid`, `int`). */
  type: string;
  descending: boolean;
  /** Nullable columns sort their NULLs after every value, in either direction. */
  nullsLast?: boolean;
}

/** A list's sort key: ORDER BY, the keyset of a row, and the condition for the rows after a keyset. */
export class SortKey {
  constructor(private readonly columns: KeyColumn[]) {}

  orderBy(alias?: string): string {
    return this.columns
      .map((c) => `${this.named(c, alias)} ${c.descending ? 'DESC' : 'ASC'}${c.nullsLast ? ' NULLS LAST' : ''}`)
      .join(', ');
  }

  /** The key's columns, for a SELECT list (`s.start_time, s.id`). */
  names(): string {
    return this.columns.map((c) => c.sql).join(', ');
  }

  /**
   * The SELECT expression of a row's keyset, each value as text (`keyset` in the row). A JSON array
   * rather than a text[]: pg hands json to the native JSON.parse, and a text[] to a parser written
   * in JavaScript, which cost a page of 50 rows more than the rest of its mapping.
   */
  select(alias?: string): string {
    return `json_build_array(${this.columns.map((c) => `${this.named(c, alias)}::text`).join(', ')}) AS keyset`;
  }

  /**
   * The rows after `keyset`, as SQL whose values go through `param`. The key is (nullable column?,
   * ..., id) with one direction: a row comparison, which a btree index on the same columns serves.
   */
  after(keyset: Keyset, param: (value: unknown) => string): string {
    const op = this.columns[0].descending ? '<' : '>';
    const compare = (from: number) => {
      // Only the values the SQL names become parameters (PostgreSQL refuses an untyped unused one).
      const values = keyset.slice(from).map((value, i) => `${param(value)}::${this.columns[from + i].type}`);
      return `(${this.columns
        .slice(from)
        .map((c) => c.sql)
        .join(', ')}) ${op} (${values.join(', ')})`;
    };
    if (!this.columns[0].nullsLast) return compare(0);
    const nullable = this.columns[0].sql;
    // NULLs come last: after a value, the further values and every NULL; after a NULL, the NULLs further on.
    if (keyset[0] === null) return `(${nullable} IS NULL AND ${compare(1)})`;
    return `(${compare(0)} OR ${nullable} IS NULL)`;
  }

  /**
   * The rows after a position of a list merged from several (an account's activity): after `key` at
   * `at` when the position is one of this list's rows, else every row before `at`, or at it too when
   * `inclusive`. The key is (a time, id), its values going through `param` as in `after`.
   */
  afterBound(
    bound: { at: string; key: string } | { at: string; inclusive: boolean },
    param: (value: unknown) => string,
  ): string {
    if ('key' in bound) return this.after([bound.at, bound.key], param);
    const [first] = this.columns;
    return `${first.sql} ${first.descending ? '<' : '>'}${bound.inclusive ? '=' : ''} ${param(bound.at)}::${first.type}`;
  }

  private named(column: KeyColumn, alias?: string): string {
    return alias === undefined ? column.sql : `${alias}${column.sql.replace(/^\w+\./, '')}`;
  }
}

/** The keyset of a row read with SortKey.select. */
export const keysetOf = (row: { keyset: Keyset }): Keyset => row.keyset;
