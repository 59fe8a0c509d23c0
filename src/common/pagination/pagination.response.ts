import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../http/api-integer';

/** `nextCursor` of every list response: the cursor of the next page, null on the last one. */
export const ApiNextCursor = () =>
  ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page.',
  });

/** `pagination` of the sessions and people list responses (docs/api.md §11.1). */
export class PaginationResponse {
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiNextCursor() nextCursor: string | null;
}
