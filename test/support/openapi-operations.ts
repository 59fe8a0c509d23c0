import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The operations of the committed openapi.json, read as a client reads them: which (method, path
 * template) a concrete request is, and how its query parameters are serialized by the document's
 * `style`/`explode` (OpenAPI's default for a query array is `form` + `explode: true`, i.e. repeated
 * keys; `explode: false` is the comma form).
 */

export const OPENAPI_PATH = join(__dirname, '..', '..', 'openapi.json');

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema?: { type?: string | string[]; format?: string };
}

export interface DocumentOperation {
  /** Upper case, as on the wire. */
  method: string;
  template: string;
  /** `GET /api/v1/sessions/{session_id}` */
  key: string;
  /** The declared response statuses ("200", "404", "default"...). */
  statuses: string[];
  parameters: Parameter[];
  hasRequestBody: boolean;
  pattern: RegExp;
  /** Characters outside `{params}`: the most specific template wins (`/custom-links/actions` over `/custom-links/{link_id}`). */
  literalLength: number;
}

interface Document {
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; responses?: Record<string, unknown>; requestBody?: unknown }> & {
      parameters?: Parameter[];
    }
  >;
}

export function loadOperations(path = OPENAPI_PATH): DocumentOperation[] {
  const document = JSON.parse(readFileSync(path, 'utf8')) as Document;
  const operations: DocumentOperation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      // Operation parameters override path-level ones of the same name and location.
      const byKey = new Map<string, Parameter>();
      for (const p of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) byKey.set(`${p.in}:${p.name}`, p);
      const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/]+)');
      operations.push({
        method: method.toUpperCase(),
        template,
        key: `${method.toUpperCase()} ${template}`,
        statuses: Object.keys(operation.responses ?? {}),
        parameters: [...byKey.values()],
        hasRequestBody: operation.requestBody !== undefined,
        pattern: new RegExp(`^${escaped}$`),
        literalLength: template.replace(/\{[^}]+\}/g, '').length,
      });
    }
  }
  return operations;
}

/** The document's operation for a concrete method and path (no query), or undefined. */
export function operationFor(
  operations: DocumentOperation[],
  method: string,
  path: string,
): DocumentOperation | undefined {
  return operations
    .filter((op) => op.method === method.toUpperCase() && op.pattern.test(path))
    .sort((a, b) => b.literalLength - a.literalLength)[0];
}

export type QueryValue = string | number | boolean | (string | number)[];

const DELIMITERS: Record<string, string> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

function isArraySchema(parameter: Parameter | undefined): boolean {
  const type = parameter?.schema?.type;
  return type === 'array' || (Array.isArray(type) && type.includes('array'));
}

/**
 * `query` serialized as the operation declares each parameter: an array parameter with
 * `explode: false` as one delimited value, otherwise (OpenAPI's default) as repeated keys.
 */
export function serializeQuery(
  operation: DocumentOperation | undefined,
  query: Record<string, QueryValue | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      params.append(name, String(value));
      continue;
    }
    const parameter = operation?.parameters.find((p) => p.in === 'query' && p.name === name);
    const style = parameter?.style ?? 'form';
    const explode = parameter?.explode ?? style === 'form';
    if (isArraySchema(parameter) && !explode && DELIMITERS[style]) params.append(name, value.join(DELIMITERS[style]));
    else for (const item of value) params.append(name, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
