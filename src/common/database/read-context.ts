import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { DataSource } from 'typeorm';

/**
 * What the read routing (src/database/read-routing.ts) knows of the HTTP request a statement runs for (read-routing.ts). Work
 * outside a request (queue workers, sweeps, the CLI, start-up) has no context and reads the primary.
 */
export interface ReadContext {
  /** Its method decides whether replicas may serve it; its principal (set by ApiKeyGuard) names the organization. */
  readonly request: { method: string; principal?: { organizationId: string } };
  /**
   * Set by its first write, transaction or read on the primary: the rest of the request reads the
   * primary (it never sees older data than it already has).
   */
  onPrimary: boolean;
  /** The organization's mark (read-routing.ts), read from Redis once per request; null: none, undefined: unknown. */
  mark?: Promise<bigint | null | undefined>;
}

export const readContexts = new AsyncLocalStorage<ReadContext>();

/** Runs the rest of the request (guards, handler) inside its read context. */
export function readContextMiddleware(req: Request, _res: Response, next: NextFunction): void {
  readContexts.run({ request: req, onPrimary: false }, next);
}

/** Runs a statement where the read routing sends it; `run` executes it on the data source given. */
export interface StatementRouter {
  route<T>(sql: string, run: (source: DataSource) => Promise<T>): Promise<T>;
}

/** The router of each app data source with replicas (src/database/read-routing.ts), for preparedQuery. */
export const readRouters = new WeakMap<DataSource, StatementRouter>();
