import type Redis from 'ioredis';
import { LimitExceededError } from '../errors/domain-errors';
import { hourAndDayWindows, LimitsService } from './limits.service';

/**
 * An in-memory stand-in for the two scripts WindowCounter runs (charge all windows or none, opening
 * a window with the end given; refund only to the window charged). The scripts themselves run
 * against Redis in test/limits-across-instances.e2e-spec.ts.
 */
function fakeRedis(): { redis: Redis; counts: Map<string, number>; ends: Map<string, number> } {
  const counts = new Map<string, number>();
  const ends = new Map<string, number>();
  const redis = {
    chargeWindows: async (numKeys: number, ...args: string[]) => {
      const keys = args.slice(0, numKeys);
      const cost = Number(args[numKeys]);
      const limit = (i: number) => Number(args[numKeys + 1 + i * 2]);
      const endIfOpened = (i: number) => Number(args[numKeys + 2 + i * 2]);
      const refused = keys.findIndex((key, i) => (counts.get(key) ?? 0) + cost > limit(i)) + 1;
      if (refused === 0) {
        keys.forEach((key, i) => {
          counts.set(key, (counts.get(key) ?? 0) + cost);
          if (!ends.has(key)) ends.set(key, endIfOpened(i));
        });
      }
      return [refused, ...keys.flatMap((key, i) => [counts.get(key) ?? 0, ends.get(key) ?? endIfOpened(i)])];
    },
    refundWindows: async (numKeys: number, ...args: string[]) => {
      const [amount, chargedAt] = [Number(args[numKeys]), Number(args[numKeys + 1])];
      args.slice(0, numKeys).forEach((key, i) => {
        const end = ends.get(key);
        if (end !== undefined && end - Number(args[numKeys + 2 + i]) <= chargedAt)
          counts.set(key, Math.max(0, (counts.get(key) ?? 0) - amount));
      });
      return 1;
    },
  } as unknown as Redis;
  return { redis, counts, ends };
}

const ORG = '01a2026c-f1ee-742c-8811-1fa4750392ae';
const AT = Date.parse('2026-03-04T10:15:30.500Z');

describe('LimitsService', () => {
  it('reserves every group or none: a refused group gives back the groups charged before it', async () => {
    const { redis, counts } = fakeRedis();
    const limits = new LimitsService(redis);
    const first = hourAndDayWindows('first', ORG, 10, 100);
    const second = hourAndDayWindows('second', ORG, 2, 100);
    await expect(
      limits.reserveAllOrNone(
        [
          { windows: first, units: 5 },
          { windows: second, units: 3 },
        ],
        AT,
      ),
    ).rejects.toBeInstanceOf(LimitExceededError);
    expect([...counts.values()].every((count) => count === 0)).toBe(true);

    await limits.reserveAllOrNone(
      [
        { windows: first, units: 5 },
        { windows: second, units: 0 },
      ],
      AT,
    );
    expect(Object.fromEntries(counts)).toEqual({ [`limit:first:hour:{${ORG}}`]: 5, [`limit:first:day:{${ORG}}`]: 5 });
  });

  it('refunds each group by its units, to the windows charged at the instant named', async () => {
    const { redis, counts, ends } = fakeRedis();
    const limits = new LimitsService(redis);
    const windows = hourAndDayWindows('units', ORG, 10, 10);
    await limits.reserveAllOrNone([{ windows, units: 4 }], AT);
    // Opened at 10:15:30.500: the hour ends at 11:15:30, the day a day later, on whole seconds.
    expect(Object.fromEntries(ends)).toEqual({
      [`limit:units:hour:{${ORG}}`]: Date.parse('2026-03-04T11:15:30Z'),
      [`limit:units:day:{${ORG}}`]: Date.parse('2026-03-05T10:15:30Z'),
    });
    await limits.refund([{ windows, units: 3 }], AT);
    expect([...counts.values()]).toEqual([1, 1]);
    // Units charged before these windows opened belong to windows gone since: nothing is given back here.
    await limits.refund([{ windows, units: 1 }], Date.parse('2026-03-04T10:15:29.999Z'));
    expect([...counts.values()]).toEqual([1, 1]);
  });

  it('keeps the organization mutation window under its original key, and its 429 carries the window end', async () => {
    const { redis, counts, ends } = fakeRedis();
    const limits = new LimitsService(redis);
    await limits.chargeMutation(ORG, 1);
    const refusal = await limits.chargeMutation(ORG, 1).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(LimitExceededError);
    const key = `limit:link-mutations:${ORG}`;
    expect(Object.fromEntries(counts)).toEqual({ [key]: 1 });
    const headers = (refusal as LimitExceededError).headers;
    expect(headers['X-RateLimit-Reset']).toBe(String(ends.get(key)! / 1000));
    expect(headers['X-RateLimit-Remaining']).toBe('0');
  });
});

describe('window helpers', () => {
  it('hour and day windows are fixed windows of 3600 s and 86400 s', () => {
    expect(hourAndDayWindows('link-creation', ORG, 5, 9)).toEqual([
      { key: `limit:link-creation:hour:{${ORG}}`, limit: 5, ttlMs: 3_600_000 },
      { key: `limit:link-creation:day:{${ORG}}`, limit: 9, ttlMs: 86_400_000 },
    ]);
  });
});
