import { ApiProperty, ApiPropertyOptional, type SchemaObject } from '@nestjs/swagger';

const ANY_JSON: SchemaObject[] = [
  { type: 'string' },
  { type: 'number' },
  { type: 'boolean' },
  { type: 'object', additionalProperties: true, nullable: true },
  { type: 'array', items: {} },
];

export class ErrorResponse {
  @ApiProperty({ example: 'API key required or invalid.' })
  detail: string;
}

export class ValidationIssueDto {
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    example: ['body', 'name'],
  })
  loc: (string | number)[];

  @ApiProperty({ example: 'Field required' })
  msg: string;

  @ApiProperty({ example: 'missing' })
  type: string;

  // Any JSON value, null included (OpenAPI 3.0 has no null type: a nullable member): without it the explorer would declare `object`.
  @ApiPropertyOptional({ description: 'The value received (any JSON value).', anyOf: ANY_JSON })
  input?: unknown;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  ctx?: Record<string, unknown>;
}

export class ValidationErrorResponse {
  @ApiProperty({ type: [ValidationIssueDto] })
  detail: ValidationIssueDto[];
}
