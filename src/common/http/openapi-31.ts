import type { OpenAPIObject, ParameterObject } from '@nestjs/swagger';

type Json = Record<string, unknown>;

const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf', '$ref'] as const;

/**
 * The document @nestjs/swagger builds (OpenAPI 3.0 semantics) as OpenAPI 3.1, where `null` is a
 * type: strict validators (Prism, ajv 2020) read 3.0's `nullable` beside `allOf`/`$ref` as "null
 * not allowed", so every nullable schema becomes one that admits null under JSON Schema itself.
 * Array query parameters are declared as comma lists (`explode: false`): the server reads that form
 * and the repeated one alike (common/validation/enum-list.ts), and a generator then sends one
 * parameter a validating proxy reads as the array it is.
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const converted = withNullTypes(document) as OpenAPIObject;
  for (const path of Object.values(converted.paths)) {
    for (const operation of Object.values(path) as { parameters?: ParameterObject[] }[]) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query' && (parameter.schema as Json | undefined)?.type === 'array')
          Object.assign(parameter, { style: 'form', explode: false });
      }
    }
  }
  return { ...converted, openapi: '3.1.0' };
}

/** Every object carrying `nullable` (only schemas do) rewritten to admit null in JSON Schema terms. */
function withNullTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withNullTypes);
  if (!value || typeof value !== 'object') return value;
  const converted = Object.fromEntries(Object.entries(value as Json).map(([key, item]) => [key, withNullTypes(item)]));
  if (!('nullable' in converted)) return converted;
  const { nullable, ...schema } = converted;
  return nullable === true ? admittingNull(schema) : schema;
}

function admittingNull(schema: Json): Json {
  if (COMPOSITIONS.some((key) => key in schema)) {
    // Nest writes a nullable nested object as `type: object` + `allOf: [$ref]`: the reference, or null.
    const { type: _type, allOf, ...rest } = schema;
    if (!Array.isArray(allOf)) return { anyOf: [rest, { type: 'null' }] };
    return { ...rest, anyOf: [allOf.length === 1 ? (allOf[0] as Json) : { allOf }, { type: 'null' }] };
  }
  if (typeof schema.type === 'string') {
    const enumeration = schema.enum as unknown[] | undefined;
    return { ...schema, type: [schema.type, 'null'], ...(enumeration ? { enum: [...enumeration, null] } : {}) };
  }
  return { anyOf: [schema, { type: 'null' }] };
}
