import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ErrorResponse {
  @ApiProperty({ example: 'API key required or invalid.' })
  detail: string;
}

export class ValidationIssueDto {
  @ApiProperty({ type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] }, example: ['body', 'name'] })
  loc: (string | number)[];

  @ApiProperty({ example: 'Field required' })
  msg: string;

  @ApiProperty({ example: 'missing' })
  type: string;

  @ApiPropertyOptional({ description: 'The value received.' })
  input?: unknown;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  ctx?: Record<string, unknown>;
}

export class ValidationErrorResponse {
  @ApiProperty({ type: [ValidationIssueDto] })
  detail: ValidationIssueDto[];
}
