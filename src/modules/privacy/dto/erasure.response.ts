import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-integer';
import type { ErasureRow } from '../privacy.repository';
import { ERASURE_STATUSES, type ErasureCountsOf } from '../rules/erasure-counts';

/** What an erasure erased, per kind (docs/api.md §18.2). */
export class ErasureCounts implements ErasureCountsOf {
  @ApiInteger({ minimum: 0, description: 'Sessions deleted.' }) sessions: number;
  @ApiInteger({ minimum: 0, description: 'Transcripts deleted with them.' }) transcripts: number;
  @ApiInteger({ minimum: 0, description: 'People deleted.' }) people: number;
  @ApiInteger({ minimum: 0, description: 'Custom Links that lost their prospect fields.' }) customLinks: number;
  @ApiInteger({ minimum: 0, description: 'Link events that lost their visitor and session ids.' }) events: number;
  @ApiInteger({ minimum: 0, description: 'Export files deleted.' }) exports: number;
  @ApiInteger({ minimum: 0, description: 'Webhook deliveries deleted with their messages.' })
  webhookDeliveries: number;
  @ApiInteger({ minimum: 0, description: 'Stored idempotent answers deleted.' }) idempotencyRecords: number;
}

export class ErasureResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ERASURE_STATUSES }) status: (typeof ERASURE_STATUSES)[number];
  @ApiProperty({ format: 'date-time' }) requestedAt: string;
  @ApiProperty() suppress: boolean;
  @ApiProperty({ type: ErasureCounts, nullable: true, description: 'Null until the erasure completed.' })
  counts: ErasureCounts | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why a failed erasure failed; null otherwise.' })
  failureReason: string | null;
}

export class ErasureListResponse {
  @ApiProperty({ type: [ErasureResponse] }) erasures: ErasureResponse[];
  @ApiInteger({ minimum: 1, maximum: 200 }) limit: number;
  @ApiProperty({ type: String, nullable: true }) nextCursor: string | null;
}

export const erasureLocation = (id: string) => `/api/v1/privacy/erasures/${id}`;

export function toErasureResponse(row: ErasureRow): ErasureResponse {
  return {
    id: row.id,
    status: row.status,
    requestedAt: row.created_at.toISOString(),
    suppress: row.suppress,
    counts: row.status === 'completed' ? (row.counts as ErasureCounts) : null,
    completedAt: row.completed_at?.toISOString() ?? null,
    failureReason: row.failure_reason,
  };
}
