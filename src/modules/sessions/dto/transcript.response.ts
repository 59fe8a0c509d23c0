import { ApiProperty } from '@nestjs/swagger';

export class TranscriptEntryResponse {
  @ApiProperty() speaker: string;
  @ApiProperty() text: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) timestamp: string | null;
  @ApiProperty() sequenceNumber: number;
}

/** Transcript (docs/api.md §2.3); entries by sequenceNumber. */
export class TranscriptResponse {
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ type: [TranscriptEntryResponse] }) entries: TranscriptEntryResponse[];
  @ApiProperty() total: number;
}
