import { ApiProperty } from '@nestjs/swagger';

/** `nextCursor` of every list response: the cursor of the next page, null on the last one. */
export const ApiNextCursor = () => ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' });

/** `pagination` of the sessions and people list responses (docs/api.md §11.1). */
export class PaginationResponse {
  @ApiProperty() total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
  @ApiNextCursor() nextCursor: string | null;
}
