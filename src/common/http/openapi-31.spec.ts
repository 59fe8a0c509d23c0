import type { OpenAPIObject } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-31';

const documentWith = (schemas: Record<string, unknown>, parameters: unknown[] = []): OpenAPIObject =>
  ({
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: { '/x': { get: { parameters, responses: {} } } },
    components: { schemas },
  }) as unknown as OpenAPIObject;

const schemaOf = (document: OpenAPIObject, name: string) => document.components?.schemas?.[name];

describe('toOpenApi31', () => {
  it('declares OpenAPI 3.1 and leaves no `nullable` keyword anywhere', () => {
    const converted = toOpenApi31(
      documentWith({
        A: {
          type: 'object',
          properties: { a: { type: 'string', nullable: true }, b: { type: 'integer', nullable: false } },
        },
      }),
    );
    expect(converted.openapi).toBe('3.1.0');
    expect(JSON.stringify(converted)).not.toContain('nullable');
  });

  it('adds null to the type of a nullable scalar, and to its enum', () => {
    const converted = toOpenApi31(
      documentWith({
        S: { type: 'string', nullable: true, maxLength: 3 },
        E: { type: 'string', enum: ['a', 'b'], nullable: true },
      }),
    );
    expect(schemaOf(converted, 'S')).toEqual({ type: ['string', 'null'], maxLength: 3 });
    expect(schemaOf(converted, 'E')).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
  });

  it("turns Nest's nullable nested object (type object + allOf [$ref]) into the reference or null", () => {
    const converted = toOpenApi31(
      documentWith({
        N: { type: 'object', nullable: true, description: 'd', allOf: [{ $ref: '#/components/schemas/L' }] },
      }),
    );
    expect(schemaOf(converted, 'N')).toEqual({
      description: 'd',
      anyOf: [{ $ref: '#/components/schemas/L' }, { type: 'null' }],
    });
  });

  it('wraps a nullable bare reference and a typeless schema in anyOf with null', () => {
    const converted = toOpenApi31(
      documentWith({
        R: { $ref: '#/components/schemas/L', nullable: true },
        T: { nullable: true, description: 'any' },
      }),
    );
    expect(schemaOf(converted, 'R')).toEqual({ anyOf: [{ $ref: '#/components/schemas/L' }, { type: 'null' }] });
    expect(schemaOf(converted, 'T')).toEqual({ anyOf: [{ description: 'any' }, { type: 'null' }] });
  });

  it('declares array query parameters as comma lists and leaves the others alone', () => {
    const converted = toOpenApi31(
      documentWith({}, [
        { name: 'a', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
        { name: 'b', in: 'query', schema: { type: 'string' } },
      ]),
    );
    expect(converted.paths['/x'].get?.parameters).toEqual([
      { name: 'a', in: 'query', schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: false },
      { name: 'b', in: 'query', schema: { type: 'string' } },
    ]);
  });
});
