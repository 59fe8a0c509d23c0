import type { INestApplication } from '@nestjs/common';
import {
  ApiExtension,
  DocumentBuilder,
  SwaggerModule,
  type OpenAPIObject,
  type OperationObject,
  type PathItemObject,
  type ResponseObject,
  type SchemaObject,
} from '@nestjs/swagger';
import { ErrorResponse } from './error-response.dto';
import { toOpenApi31 } from './openapi-31';
import { responseHeaders, type ResponseHeaderName } from './openapi-headers';

/** What the API sends rather than serves (OpenAPI 3.1 `webhooks`), with the schemas they use. */
export interface OutgoingMessages {
  webhooks: Record<string, PathItemObject>;
  schemas: Record<string, SchemaObject>;
}

const ERROR_SCHEMA = { $ref: `#/components/schemas/${ErrorResponse.name}` };
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const RATE_LIMIT: ResponseHeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const TOO_LARGE: ResponseObject = {
  description: 'Request body too large (over 1 MiB; 5 MiB on link creation and events).',
  content: { 'application/json': { schema: ERROR_SCHEMA } },
};
const UNEXPECTED: ResponseObject = {
  description: 'Internal server error. (never a stack trace or SQL text)',
  content: { 'application/json': { schema: ERROR_SCHEMA } },
};
/** Every operation that reads PostgreSQL or Redis answers 503 while they are down or too slow. */
const OUTAGE: ResponseObject = {
  description: 'The workflow is disabled or temporarily unavailable (PostgreSQL or Redis down or too slow).',
  content: { 'application/json': { schema: ERROR_SCHEMA } },
};

/**
 * The OpenAPI document of the HTTP API, as served at /api/v1/openapi.json and committed as
 * openapi.json (`npm run openapi`). Nest's explorer gives the routes, DTO schemas and the statuses
 * each route declares; what holds for every route by construction of the pipeline (request id,
 * rate-limit headers after authentication, the outage 503, the 413 of a body too large, replays of idempotent requests) is added
 * here, in one place, rather than repeated on each handler.
 */
export function createOpenApiDocument(
  app: INestApplication,
  serverUrl: string,
  outgoing: OutgoingMessages,
): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Sales Engagement Analytics and Personalized Link API')
      .setDescription(
        'Read analyzed demo sessions, people, accounts and engagement; manage Custom Links, their campaigns and jobs; apply Playbook suggestions and publish the agent.',
      )
      .setVersion('1.0.0')
      .setLicense('UNLICENSED', 'https://en.wikipedia.org/wiki/Proprietary_software')
      .addServer(serverUrl, 'PUBLIC_BASE_URL of this deployment')
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sk_live_ API key',
          description: 'Authorization: Bearer sk_live_…',
        },
        'bearer',
      )
      .addApiKey(
        { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The same key in x-api-key' },
        'x-api-key',
      )
      // Two requirement objects: either header authenticates.
      .addSecurityRequirements('bearer')
      .addSecurityRequirements('x-api-key')
      .build(),
    {
      operationIdFactory: (controller, method) => `${lowerFirst(controller.replace(/Controller$/, ''))}_${method}`,
      extraModels: [ErrorResponse],
    },
  );
  for (const operation of operations(document)) addCommonResponses(operation);
  const schemas = { ...document.components?.schemas, ...outgoing.schemas };
  return sortedDocument(
    toOpenApi31({ ...document, webhooks: outgoing.webhooks, components: { ...document.components, schemas } }),
  );
}

/** Marks a route that reads neither PostgreSQL nor Redis: it never answers the outage 503. */
const INDEPENDENT = 'x-needs-no-dependency';
export const NeedsNoDependency = () => ApiExtension(INDEPENDENT, true);

function addCommonResponses(operation: OperationObject & { [INDEPENDENT]?: boolean }): void {
  const authenticated = operation.security?.length !== 0;
  const independent = operation[INDEPENDENT] === true;
  delete operation[INDEPENDENT];
  const idempotent = (operation.parameters ?? []).some(
    (p) => 'in' in p && p.in === 'header' && p.name === 'Idempotency-Key',
  );
  if (!independent && !operation.responses['503']) operation.responses['503'] = { ...OUTAGE };
  // The body limit is checked before routing reaches a handler: any request with a large body, even a GET.
  if (!operation.responses['413']) operation.responses['413'] = { ...TOO_LARGE };
  if (!operation.responses['500']) operation.responses['500'] = { ...UNEXPECTED };
  for (const [status, response] of Object.entries(operation.responses) as [string, ResponseObject][]) {
    const code = Number(status);
    const required: ResponseHeaderName[] = ['X-Request-ID'];
    const optional: ResponseHeaderName[] = [];
    // SPEC §7 rule 2: a 429 and a 503 carry them (a 503 from the error filter, whatever the route).
    if (code === 429 || (code === 503 && (authenticated || response.description === OUTAGE.description)))
      required.push('Retry-After', ...RATE_LIMIT);
    else if (code === 503) required.push('Retry-After');
    // The request-rate guard sets them once the key is known: a 401 has none, a later error may.
    else if (authenticated && code !== 401) optional.push(...RATE_LIMIT);
    // 429 and 5xx answers are not stored for replay (docs/api.md §10).
    if (idempotent && code < 500 && code !== 429) optional.push('Idempotent-Replayed');
    response.headers = { ...responseHeaders(required, optional), ...response.headers };
    if (code >= 400 && !response.content) response.content = { 'application/json': { schema: ERROR_SCHEMA } };
  }
}

function* operations(document: OpenAPIObject): Generator<OperationObject> {
  for (const path of Object.values(document.paths)) {
    for (const method of METHODS) if (path[method]) yield path[method];
  }
}

/** Paths, schemas and statuses in a stable order, so the committed file changes only with the API. */
function sortedDocument(document: OpenAPIObject): OpenAPIObject {
  const paths = sortKeys(document.paths);
  for (const path of Object.values(paths)) {
    for (const method of METHODS) if (path[method]) path[method].responses = sortKeys(path[method].responses);
  }
  const components = document.components
    ? { ...document.components, schemas: sortKeys(document.components.schemas ?? {}) }
    : undefined;
  return { ...document, paths, components };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}
