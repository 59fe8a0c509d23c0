import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsObject, IsOptional } from 'class-validator';
import { EXPORT_RESOURCES, type ExportResource } from '../export-sources';
import { EXPORT_FORMATS, type ExportFormat } from '../rules/export-format';

/** POST /api/v1/exports. */
export class CreateExportRequest {
  @ApiProperty({ enum: EXPORT_RESOURCES })
  @IsDefined()
  @IsIn(EXPORT_RESOURCES as unknown as string[])
  resource: ExportResource;

  @ApiProperty({ enum: EXPORT_FORMATS })
  @IsDefined()
  @IsIn(EXPORT_FORMATS as unknown as string[])
  format: ExportFormat;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description:
      "The list's query parameters as its GET takes them (strings; comma lists as one string), pagination apart; for link_events also link_id (required).",
  })
  @IsOptional()
  @IsObject()
  filters?: Record<string, string>;
}
