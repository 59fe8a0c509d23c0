import type Redis from 'ioredis';
import { CountCache } from './count-cache';

/** An in-memory stand-in for the three Redis commands CountCache uses. */
function fakeRedis(): Redis {
  const values = new Map<string, string>();
  return {
    get: async (key: string) => values.get(key) ?? null,
    set: async (key: string, value: string) => void values.set(key, value),
    incr: async (key: string) => {
      const next = Number(values.get(key) ?? '0') + 1;
      values.set(key, String(next));
      return next;
    },
  } as unknown as Redis;
}

const LIST = 'sessions';
const ORG = '01a2026c-f1ee-742c-8811-1fa4750392ae';
const query = (email: string) => ({ limit: 50, offset: 0, email });

describe('CountCache', () => {
  it('counts once for concurrent misses of one total, and answers later reads from the cache', async () => {
    const cache = new CountCache(fakeRedis());
    let computed = 0;
    let release!: (total: number) => void;
    const compute = () => {
      computed += 1;
      return new Promise<number>((resolve) => (release = resolve));
    };
    const first = cache.count(LIST, ORG, query('zoe@'), compute);
    const second = cache.count(LIST, ORG, { ...query('zoe@'), offset: 100 }, compute);
    await new Promise((resolve) => setImmediate(resolve));
    release(647);
    expect(await Promise.all([first, second])).toEqual([647, 647]);
    expect(await cache.count(LIST, ORG, query('zoe@'), compute)).toBe(647);
    expect(computed).toBe(1);
  });

  it('counts different filters apart, and recounts after an invalidation', async () => {
    const cache = new CountCache(fakeRedis());
    const totals = [3, 5, 8];
    const compute = jest.fn(async () => totals.shift()!);
    expect(await cache.count(LIST, ORG, query('a'), compute)).toBe(3);
    expect(await cache.count(LIST, ORG, query('b'), compute)).toBe(5);
    await cache.invalidate(ORG, LIST);
    expect(await cache.count(LIST, ORG, query('a'), compute)).toBe(8);
    expect(compute).toHaveBeenCalledTimes(3);
  });

  it('lets a failed count be tried again', async () => {
    const cache = new CountCache(fakeRedis());
    const failing = jest.fn(async () => Promise.reject(new Error('statement timeout')));
    await expect(cache.count(LIST, ORG, query('a'), failing)).rejects.toThrow('statement timeout');
    expect(await cache.count(LIST, ORG, query('a'), async () => 13)).toBe(13);
  });
});
