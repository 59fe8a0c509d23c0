import type { Type } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';

/** A route's JSON request body with a typical example (redocly checks the example against the schema). */
export const ApiJsonBody = (type: Type, example: object) =>
  ApiBody({ type, examples: { typical: { summary: 'A typical request', value: example } } });
