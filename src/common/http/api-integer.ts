import { ApiProperty } from '@nestjs/swagger';

export interface IntegerSchema {
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  required?: boolean;
  default?: number;
  description?: string;
}

/**
 * A whole number in the OpenAPI document: `type: Number` (and a bare `number` property) is
 * declared `number`, which lets generated clients and the response check accept fractions.
 */
export const ApiInteger = (schema: IntegerSchema = {}) => ApiProperty({ ...schema, type: 'integer' });
