import { ApiProperty } from '@nestjs/swagger';

/** `pagination` of the sessions and people list responses (docs/api.md §11.1). */
export class PaginationResponse {
  @ApiProperty() total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
}
