import type { Principal } from './principal';
import { PrincipalCache } from './principal-cache';

const principal: Principal = { keyId: 'k', organizationId: 'o', scopes: ['sessions:read'] };
const other: Principal = { keyId: 'k2', organizationId: 'o', scopes: ['sessions:read'] };

/** A cache trusted for ever (the feed's lease is the subject of other tests). */
function trusted(options: Partial<ConstructorParameters<typeof PrincipalCache>[0]> = {}): PrincipalCache {
  const cache = new PrincipalCache({ ttlMs: 10_000, negativeTtlMs: 60_000, ...options });
  cache.trustUntil(Number.POSITIVE_INFINITY);
  return cache;
}

describe('PrincipalCache', () => {
  it('remembers a known key for the TTL', async () => {
    const cache = trusted();
    expect(cache.peek('h', 0)).toBeUndefined();
    expect(await cache.load('h', async () => principal, 0)).toBe(principal);
    expect(cache.peek('h', 9_999)).toBe(principal);
    expect(cache.peek('h', 10_000)).toBeUndefined();
  });

  it('remembers an unknown key as null for the negative TTL', async () => {
    const cache = trusted();
    expect(await cache.load('h', async () => null, 0)).toBeNull();
    expect(cache.peek('h', 59_999)).toBeNull();
    expect(cache.peek('h', 60_000)).toBeUndefined();
  });

  it('a TTL of 0 remembers nothing of that kind', async () => {
    const cache = trusted({ ttlMs: 0, negativeTtlMs: 0 });
    await cache.load('known', async () => principal, 0);
    await cache.load('unknown', async () => null, 0);
    expect(cache.peek('known', 0)).toBeUndefined();
    expect(cache.peek('unknown', 0)).toBeUndefined();
  });

  it('serves nothing outside the lease, and serves again when it is renewed', async () => {
    const cache = trusted();
    await cache.load('h', async () => principal, 0);
    cache.trustUntil(500);
    expect(cache.peek('h', 499)).toBe(principal);
    expect(cache.peek('h', 500)).toBeUndefined();
    cache.trustUntil(1_500);
    expect(cache.peek('h', 1_000)).toBe(principal);
  });

  it('starts untrusted: nothing is served before a feed vouches for it', async () => {
    const cache = new PrincipalCache({ ttlMs: 10_000, negativeTtlMs: 10_000 });
    await cache.load('h', async () => principal, 0);
    expect(cache.peek('h', 1)).toBeUndefined();
  });

  it('forgets a revoked key by id, and keeps the others', async () => {
    const cache = trusted();
    await cache.load('a', async () => principal, 0);
    await cache.load('b', async () => other, 0);
    cache.forgetKey('k');
    expect(cache.peek('a', 1)).toBeUndefined();
    expect(cache.peek('b', 1)).toBe(other);
  });

  it('forgets an unknown hash when a key with it is created', async () => {
    const cache = trusted();
    await cache.load('h', async () => null, 0);
    await cache.load('g', async () => null, 0);
    cache.forgetUnknown('h');
    expect(cache.peek('h', 1)).toBeUndefined();
    expect(cache.peek('g', 1)).toBeNull();
  });

  it('an answer a revocation may have outdated is not remembered, and its callers, early or late, ask again', async () => {
    const cache = trusted();
    let release!: (p: Principal) => void;
    const lookup = jest
      .fn<Promise<Principal | null>, [string]>()
      .mockImplementationOnce(() => new Promise<Principal>((resolve) => (release = resolve)))
      .mockResolvedValue(null);
    const before = cache.load('h', lookup, 0);
    cache.forgetKey('k');
    // Arrives after the announcement, while the first lookup is still under way.
    const after = cache.load('h', lookup, 0);
    release(principal);
    expect(await before).toBeNull();
    expect(await after).toBeNull();
    expect(lookup).toHaveBeenCalledTimes(2);
    expect(cache.peek('h', 1)).toBeNull();
  });

  it('a key created while its hash was being looked up as unknown is looked up again', async () => {
    const cache = trusted();
    let release!: (p: null) => void;
    const lookup = jest
      .fn<Promise<Principal | null>, [string]>()
      .mockImplementationOnce(() => new Promise<null>((resolve) => (release = resolve)))
      .mockResolvedValue(principal);
    const answer = cache.load('h', lookup, 0);
    cache.forgetUnknown('h');
    release(null);
    expect(await answer).toBe(principal);
    expect(cache.peek('h', 1)).toBe(principal);
  });

  it('announcements about other keys leave a lookup under way alone', async () => {
    const cache = trusted();
    let release!: (p: Principal) => void;
    const lookup = jest.fn(() => new Promise<Principal>((resolve) => (release = resolve)));
    const answer = cache.load('h', lookup, 0);
    cache.forgetKey('k2');
    cache.forgetUnknown('g');
    release(principal);
    expect(await answer).toBe(principal);
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(cache.peek('h', 1)).toBe(principal);
  });

  it('after clear() nothing under way is remembered either', async () => {
    const cache = trusted();
    let release!: (p: Principal) => void;
    const lookup = jest
      .fn<Promise<Principal | null>, [string]>()
      .mockImplementationOnce(() => new Promise<Principal>((resolve) => (release = resolve)))
      .mockResolvedValue(other);
    const answer = cache.load('h', lookup, 0);
    cache.clear();
    release(principal);
    expect(await answer).toBe(other);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('shares one lookup between concurrent misses', async () => {
    const cache = trusted();
    let release!: (p: Principal) => void;
    const load = jest.fn(() => new Promise<Principal>((resolve) => (release = resolve)));
    const both = Promise.all([cache.load('h', load, 0), cache.load('h', load, 0)]);
    release(principal);
    expect(await both).toEqual([principal, principal]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('clear() drops both kinds', async () => {
    const cache = trusted();
    await cache.load('a', async () => principal, 0);
    await cache.load('b', async () => null, 0);
    cache.clear();
    expect(cache.hashes()).toEqual([]);
  });

  it('evicts the oldest entry of a kind when full; unknown keys never push out known ones', async () => {
    const cache = trusted({ maxEntries: 2 });
    await cache.load('a', async () => principal, 0);
    await cache.load('b', async () => other, 0);
    for (const hash of ['x', 'y', 'z']) await cache.load(hash, async () => null, 0);
    expect(cache.peek('a', 1)).toBe(principal);
    expect(cache.peek('b', 1)).toBe(other);
    expect(cache.peek('x', 1)).toBeUndefined();
    expect(cache.peek('z', 1)).toBeNull();
    await cache.load('c', async () => principal, 0);
    expect(cache.peek('a', 1)).toBeUndefined();
  });
});
