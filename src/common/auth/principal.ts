import type { Scope } from './scopes';

/** Who is calling: resolved from the API key, never from input. */
export interface Principal {
  keyId: string;
  organizationId: string;
  scopes: Scope[];
}

/** Resolves a key hash to its principal (null when unknown or revoked). Implemented by the api-keys module. */
export abstract class PrincipalLookup {
  abstract findActiveByHash(keyHash: string): Promise<Principal | null>;
}
