/**
 * Whether an error means a dependency (PostgreSQL, Redis, the queue) is unreachable, too slow or
 * failing over, as opposed to a bug or a rule: such a request answers 503 with Retry-After and the
 * client retries once the dependency is back. Errors are recognised by their codes and names, never
 * by texts that carry values.
 */
export function isDependencyFailure(error: unknown): boolean {
  // Not `instanceof Error`: driver errors may come from another realm (a VM context under test).
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof DependencyTimeoutError) return true;
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof message !== 'string') return false;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')))
    return true;
  // ioredis: retries exhausted while disconnected, a command unanswered within commandTimeout, or
  // refused at once while the shared connection is away (it queues nothing: redis.module.ts).
  if (name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.has(message)) return true;
  // ioredis' Cluster: no slot map, a node away past its redirections, or the cluster's own refusal.
  if (name === 'ClusterAllFailedError' || REDIS_CLUSTER_PREFIXES.some((text) => message.startsWith(text))) return true;
  // pg and pg-pool: their own timeouts and lost connections carry no code.
  return PG_MESSAGES.some((text) => message.startsWith(text));
}

/** Thrown when a dependency did not answer within its time bound (e.g. enqueueing a job). */
export class DependencyTimeoutError extends Error {
  constructor(what: string) {
    super(`${what} did not answer in time`);
  }
}

/** Resolves as `work` does, or fails with DependencyTimeoutError after `ms` (the work is not cancelled). */
export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DependencyTimeoutError(what)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const REDIS_MESSAGES = new Set([
  'Command timed out',
  'Connection is closed.',
  "Stream isn't writeable and enableOfflineQueue options is false",
]);

const REDIS_CLUSTER_PREFIXES = [
  'Too many Cluster redirections.',
  'CLUSTERDOWN',
  'TRYAGAIN',
  "Cluster isn't ready and enableOfflineQueue options is false",
  'None of startup nodes is available',
  'Cluster is disconnected.',
  'Node is disconnected',
];

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * PostgreSQL SQLSTATEs of an unavailable or overloaded server (class 08, connection exceptions, is
 * matched by prefix): statement or lock timeout, shutdown, failover, too many connections.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57014', '55P03', '57P01', '57P02', '57P03', '53300', '25P03', '40P01']);

const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
];
