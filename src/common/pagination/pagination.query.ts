import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ToInteger } from '../validation/coercion';

export const MAX_PAGE_SIZE = 200;
export const MAX_OFFSET = 1_000_000;

/** Paginated lists (docs/api.md §11.1): limit 1..200 (default 50), zero-based offset 0..1,000,000 (default 0). */
export class PaginationQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 })
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = 50;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_OFFSET, default: 0 })
  @ToInteger()
  @IsInt()
  @Min(0)
  @Max(MAX_OFFSET)
  offset: number = 0;
}
