import { Counter } from 'prom-client';
import { metricsRegistry } from './metrics-registry';

/**
 * Lookups of the process's caches by cache and result (hit, miss): the hit ratio is
 * hits / (hits + misses). Children bound once: the principal cache is read on every request.
 */
const cacheLookups = new Counter({
  name: 'engagement_cache_lookups_total',
  help: 'Cache lookups by cache (principal: API key to principal, per process; count: list totals, in Redis; analytics: answers of the aggregates, in Redis) and result (hit, miss)',
  labelNames: ['cache', 'result'],
  registers: [metricsRegistry],
});

/** Counts one lookup of the cache: `hit()` or `miss()`. */
export interface CacheLookups {
  hit(): void;
  miss(): void;
}

function lookupsOf(cache: 'principal' | 'count' | 'analytics'): CacheLookups {
  const hits = cacheLookups.labels({ cache, result: 'hit' });
  const misses = cacheLookups.labels({ cache, result: 'miss' });
  return { hit: () => hits.inc(), miss: () => misses.inc() };
}

/** An API key answered from the principal cache (known or unknown), or looked up in the database. */
export const principalCacheLookups = lookupsOf('principal');
/** A list total read from the count cache, or counted. */
export const countCacheLookups = lookupsOf('count');
/** An analytics answer of the aggregates kept for their version, or computed. */
export const analyticsCacheLookups = lookupsOf('analytics');
