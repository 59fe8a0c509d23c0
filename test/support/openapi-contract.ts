import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';

/**
 * Every response a test app sends is checked against the committed openapi.json: the operation
 * (Express's route template and the method) must declare the status; each declared header must be
 * present when required and match its schema when present; a JSON body must match the declared
 * schema, with no undeclared field. Violations are collected here and fail the running test
 * (contract-check.ts, an afterEach of every e2e file). Routes the document does not describe (docs,
 * test-only probes, unknown paths) are not checked.
 */
type Schema = Record<string, unknown>;
interface Header {
  required?: boolean;
  schema: Schema;
}
interface DeclaredResponse {
  headers?: Record<string, Header>;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  responses: Record<string, DeclaredResponse>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const DOCUMENT = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8')) as Document;
const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { binary: true } });
addFormats(ajv);
ajv.addSchema({
  $id: 'openapi',
  components: {
    schemas: Object.fromEntries(
      Object.entries(DOCUMENT.components.schemas).map(([name, schema]) => [name, toJsonSchema(schema)]),
    ),
  },
});

const violations: string[] = [];
/** The headers of the API's own (docs/api.md §7, §8, §10): one sent on a status must be declared on it. */
const API_HEADERS = [
  'X-Request-ID',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Location',
  'ETag',
  'Idempotent-Replayed',
];
const compiled = new Map<Schema, ValidateFunction>();

/**
 * The document is OpenAPI 3.1, whose schemas are JSON Schema 2020-12 (null is a type): refs point
 * into the document, and an object schema that lists its properties admits no other field.
 */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const converted: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    if (key === '$ref' && typeof value === 'string') converted.$ref = value.replace(/^#/, 'openapi#');
    else if (key === 'properties' && value && typeof value === 'object')
      converted.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)]));
    else if (key !== 'example') converted[key] = toJsonSchema(value);
  }
  if (converted.properties && converted.additionalProperties === undefined) converted.additionalProperties = false;
  return converted;
}

function validatorFor(schema: Schema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(toJsonSchema(schema) as Schema)));
  return validate;
}

/** `/api/v1/custom-links/:link_id` → `/api/v1/custom-links/{link_id}` */
const template = (expressPath: string) => expressPath.replace(/:(\w+)/g, '{$1}');

function headerValue(raw: string, schema: Schema): unknown {
  return schema.type === 'integer' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

function check(req: IncomingMessage & { route?: { path?: unknown } }, res: ServerResponse, body: Buffer): void {
  const routePath = req.route?.path;
  // Routes outside Nest's (bull-board's router) may match by pattern, not by a path string.
  if (typeof routePath !== 'string' || !req.method) return;
  const operation = DOCUMENT.paths[template(routePath)]?.[req.method.toLowerCase()];
  if (!operation) return;
  const where = `${req.method} ${template(routePath)} ${res.statusCode}`;
  const declared = operation.responses[String(res.statusCode)] ?? operation.responses.default;
  if (!declared) return void violations.push(`${where}: status not declared`);
  for (const name of API_HEADERS) {
    if (
      res.getHeader(name) !== undefined &&
      !Object.keys(declared.headers ?? {}).some((h) => h.toLowerCase() === name.toLowerCase())
    )
      violations.push(`${where}: header ${name} sent but not declared`);
  }
  for (const [name, header] of Object.entries(declared.headers ?? {})) {
    const raw = res.getHeader(name);
    if (raw === undefined) {
      if (header.required) violations.push(`${where}: required header ${name} missing`);
      continue;
    }
    const validate = validatorFor(header.schema);
    if (!validate(headerValue(String(raw), header.schema)))
      violations.push(`${where}: header ${name}: ${String(raw)} ${ajv.errorsText(validate.errors)}`);
  }
  const contentType = String(res.getHeader('content-type') ?? '');
  if (body.length === 0 || !contentType.startsWith('application/json')) return;
  const schema = declared.content?.['application/json']?.schema;
  if (!schema) return void violations.push(`${where}: JSON body not declared`);
  const validate = validatorFor(schema);
  if (!validate(JSON.parse(body.toString('utf8'))))
    violations.push(`${where}: body ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
}

/** Captures each response's body as it is written and checks the whole response once it is sent. */
export function validateResponsesAgainstContract(server: Server): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const { write, end } = res;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk && typeof chunk !== 'function')
        chunks.push(
          Buffer.isBuffer(chunk)
            ? chunk
            : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
        );
    };
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as ServerResponse['write'];
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as ServerResponse['end'];
    res.once('finish', () => {
      try {
        check(req, res, Buffer.concat(chunks));
      } catch (error) {
        violations.push(`${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  });
}

/** The violations seen since the last call (contract-check.ts fails the test that caused them). */
export function takeContractViolations(): string[] {
  return violations.splice(0);
}
