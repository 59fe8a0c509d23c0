import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-integer';

export class TranscriptEntryResponse {
  @ApiProperty() speaker: string;
  @ApiProperty() text: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) timestamp: string | null;
  @ApiInteger() sequenceNumber: number;
}

/** Transcript (docs/api.md §2.3); entries by sequenceNumber. */
export class TranscriptResponse {
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ type: [TranscriptEntryResponse] }) entries: TranscriptEntryResponse[];
  @ApiInteger() total: number;
}
