import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-integer';

/** An organization's retention setting (docs/api.md §6.10); all null (keep everything) until set. */
export class RetentionResponse {
  @ApiInteger({ nullable: true }) transcriptDays: number | null;
  @ApiInteger({ nullable: true }) sessionDays: number | null;
  @ApiInteger({ nullable: true }) eventDays: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null until first set.' })
  updatedAt: string | null;
}
