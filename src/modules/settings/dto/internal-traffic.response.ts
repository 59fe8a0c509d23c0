import { ApiProperty } from '@nestjs/swagger';

/** An organization's internal traffic setting (docs/api.md §6.8); empty lists until set. */
export class InternalTrafficResponse {
  @ApiProperty({ type: [String] }) ipRanges: string[];
  @ApiProperty({ type: [String] }) visitorIds: string[];
  @ApiProperty({ type: [String] }) userAgentContains: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null until first set.' })
  updatedAt: string | null;
}
