import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { Expose, Transform } from 'class-transformer';
import { ToInteger } from '../validation/coercion';
import { TimestampInput } from '../validation/timestamps';
import { ApiInteger } from '../http/api-integer';

export const MAX_PAGE_SIZE = 200;
export const MAX_OFFSET = 1_000_000;

/** `limit` of every paginated list (docs/api.md §11.1): 1..200, default 50. */
const PageLimit = () =>
  applyDecorators(
    ApiInteger({ required: false, minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 }),
    ToInteger(),
    IsInt(),
    Min(1),
    Max(MAX_PAGE_SIZE),
  );

/** `cursor`: the previous page's `nextCursor`, at most 1024 characters. */
const PageCursor = (description: string) =>
  applyDecorators(ApiPropertyOptional({ maxLength: 1024, description }), IsOptional(), IsString(), MaxLength(1024));

/**
 * Paginated lists (docs/api.md §11.1): limit 1..200 (default 50), and either a zero-based offset
 * 0..1,000,000 (default 0) or the `nextCursor` of the previous page, never both.
 */
export class PaginationQuery {
  @PageLimit()
  limit: number = 50;

  @ApiInteger({ required: false, minimum: 0, maximum: MAX_OFFSET, default: 0 })
  @ToInteger()
  @IsInt()
  @Min(0)
  @Max(MAX_OFFSET)
  offset: number = 0;

  @PageCursor("The previous page's nextCursor (opaque); not together with offset.")
  @ValidateBy({
    name: 'cursorWithoutOffset',
    validator: {
      validate: (_value, args) => !(args?.object as PaginationQuery).offsetGiven,
      defaultMessage: () => 'cursor and offset cannot be combined',
    },
  })
  cursor?: string;

  /** Whether the client sent `offset` (the default hides it); computed from the raw query, whatever the client sends under this name. */
  @Expose()
  @Transform(({ obj }) => ((obj as Record<string, unknown>).offset !== undefined ? true : undefined))
  @Allow()
  offsetGiven?: boolean;
}

/**
 * A list paged by cursor only (docs/api.md §11.1): limit 1..200 (default 50) and the `nextCursor` of
 * the previous page; it has no offset (one sent is not read) and no total.
 */
export class CursorPageQuery {
  @PageLimit()
  limit: number = 50;

  @PageCursor("The previous page's nextCursor (opaque).")
  cursor?: string;
}

/**
 * `updated_since` of a syncable list: the records whose updatedAt is at or after it, in (updatedAt,
 * id) ascending order. A client passes its last seen updatedAt and follows nextCursor to the end.
 */
export const UpdatedSince = () =>
  TimestampInput({
    description:
      'Only records with updatedAt at or after this instant, sorted by (updatedAt, id) ascending (incremental sync).',
  });
