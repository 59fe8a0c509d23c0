import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-integer';
import { isoOrNull } from '../../../common/validation/timestamps';
import { EXPORT_RESOURCES } from '../export-sources';
import type { ExportRow } from '../exports.repository';
import { EXPORT_FORMATS } from '../rules/export-format';

const time = { type: String, format: 'date-time', nullable: true } as const;

/** An export (issue 20 point 5). */
export class ExportResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['queued', 'processing', 'completed', 'failed'] }) status: string;
  @ApiProperty({ enum: EXPORT_RESOURCES }) resource: string;
  @ApiProperty({ enum: EXPORT_FORMATS }) format: string;
  @ApiInteger({ minimum: 0, nullable: true, description: 'Rows in the file, once completed.' }) rowCount: number | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty(time) completedAt: string | null;
  @ApiProperty({
    type: String,
    format: 'uri-reference',
    nullable: true,
    description:
      "Where the file streams from (the same organization's keys, gzip when accepted); null until completed.",
  })
  downloadUrl: string | null;
  @ApiProperty({ ...time, description: '24 h after completion; the export and its file are gone after it (404).' })
  expiresAt: string | null;
}

export const exportLocation = (id: string) => `/api/v1/exports/${id}`;

export function toExportResponse(row: ExportRow): ExportResponse {
  return {
    id: row.id,
    status: row.status,
    resource: row.resource,
    format: row.format,
    rowCount: row.row_count,
    createdAt: row.created_at.toISOString(),
    completedAt: isoOrNull(row.completed_at),
    downloadUrl: row.status === 'completed' ? `${exportLocation(row.id)}/download` : null,
    expiresAt: isoOrNull(row.expires_at),
  };
}
