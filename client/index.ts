import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

/**
 * A typed client of the API, from openapi.json (`npm run openapi` regenerates schema.d.ts with
 * openapi-typescript): paths, parameters, bodies and answers are checked by the compiler.
 */
export function createApiClient(baseUrl: string, apiKey: string, fetchImpl: typeof fetch = fetch): Client<paths> {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` }, fetch: fetchImpl });
}
