import type { Principal } from './principal';
import { PrincipalCache } from './principal-cache';

const principal: Principal = { keyId: 'k', organizationId: 'o', scopes: ['sessions:read'] };

describe('PrincipalCache', () => {
  it('loads once within the TTL and again after it', async () => {
    const cache = new PrincipalCache(10_000);
    const load = jest.fn(async () => principal);
    await cache.get('h', load, 0);
    await cache.get('h', load, 9_999);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('h', load, 10_000);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not remember unknown keys (a key created a moment later works at once)', async () => {
    const cache = new PrincipalCache(10_000);
    const load = jest.fn().mockResolvedValueOnce(null).mockResolvedValueOnce(principal);
    expect(await cache.get('h', load, 0)).toBeNull();
    expect(await cache.get('h', load, 1)).toBe(principal);
  });

  it('shares one lookup between concurrent misses', async () => {
    const cache = new PrincipalCache(10_000);
    let release!: (p: Principal) => void;
    const load = jest.fn(() => new Promise<Principal>((resolve) => (release = resolve)));
    const both = Promise.all([cache.get('h', load, 0), cache.get('h', load, 0)]);
    release(principal);
    expect(await both).toEqual([principal, principal]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('evicts the oldest entry when full', async () => {
    const cache = new PrincipalCache(10_000, 2);
    const load = jest.fn(async () => principal);
    await cache.get('a', load, 0);
    await cache.get('b', load, 0);
    await cache.get('c', load, 0);
    await cache.get('a', load, 1);
    expect(load).toHaveBeenCalledTimes(4);
  });
});
