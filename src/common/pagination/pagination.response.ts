import { ApiProperty } from '@nestjs/swagger';

/** `pagination` of SPEC §4 "P" list responses. */
export class PaginationResponse {
  @ApiProperty() total: number;
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
}
