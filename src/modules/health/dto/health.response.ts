import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const STATES = ['up', 'down'];

export class LivenessResponse {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
}

export class ReadinessChecksResponse {
  @ApiProperty({ enum: STATES }) database: string;
  @ApiProperty({ enum: STATES }) redis: string;
}

/** The body of /readyz, 200 and 503 alike (readiness.ts). */
export class ReadinessResponse {
  @ApiProperty({ enum: ['ok', 'unavailable'] }) status: string;
  @ApiProperty({ type: ReadinessChecksResponse }) checks: ReadinessChecksResponse;
  @ApiPropertyOptional({
    enum: [true],
    description: 'Present while the process shuts down: it still serves, but takes no new traffic.',
  })
  draining?: true;
}
