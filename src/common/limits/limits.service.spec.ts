import type Redis from 'ioredis';
import { LimitExceededError } from '../errors/domain-errors';
import { hourAndDayWindows, LimitsService, utcDayWindow } from './limits.service';

/** An in-memory stand-in for the two scripts WindowCounter runs (charge all windows or none; refund). */
function fakeRedis(): { redis: Redis; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const redis = {
    chargeWindows: async (numKeys: number, ...args: string[]) => {
      const keys = args.slice(0, numKeys);
      const cost = Number(args[numKeys]);
      const limits = keys.map((_, i) => Number(args[numKeys + 1 + i * 2]));
      const ttls = keys.map((_, i) => Number(args[numKeys + 2 + i * 2]));
      const refused = keys.findIndex((key, i) => (counts.get(key) ?? 0) + cost > limits[i]) + 1;
      if (refused === 0) for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + cost);
      return [refused, ...keys.flatMap((key, i) => [counts.get(key) ?? 0, ttls[i]])];
    },
    refundWindows: async (numKeys: number, ...args: string[]) => {
      for (const key of args.slice(0, numKeys)) counts.set(key, Math.max(0, (counts.get(key) ?? 0) - Number(args[numKeys])));
      return 1;
    },
  } as unknown as Redis;
  return { redis, counts };
}

const ORG = '01a2026c-f1ee-742c-8811-1fa4750392ae';

describe('LimitsService', () => {
  it('reserves every group or none: a refused group gives back the groups charged before it', async () => {
    const { redis, counts } = fakeRedis();
    const limits = new LimitsService(redis);
    const first = hourAndDayWindows('first', ORG, 10, 100);
    const second = hourAndDayWindows('second', ORG, 2, 100);
    await expect(
      limits.reserveAllOrNone([
        { windows: first, units: 5 },
        { windows: second, units: 3 },
      ]),
    ).rejects.toBeInstanceOf(LimitExceededError);
    expect([...counts.values()].every((count) => count === 0)).toBe(true);

    await limits.reserveAllOrNone([
      { windows: first, units: 5 },
      { windows: second, units: 0 },
    ]);
    expect(Object.fromEntries(counts)).toEqual({ [`limit:first:hour:${ORG}`]: 5, [`limit:first:day:${ORG}`]: 5 });
  });

  it('refunds each group by its units', async () => {
    const { redis, counts } = fakeRedis();
    const limits = new LimitsService(redis);
    const windows = hourAndDayWindows('units', ORG, 10, 10);
    await limits.reserveAllOrNone([{ windows, units: 4 }]);
    await limits.refund([{ windows, units: 3 }]);
    expect([...counts.values()]).toEqual([1, 1]);
  });

  it('keeps the organization mutation window under its original key', async () => {
    const { redis, counts } = fakeRedis();
    const limits = new LimitsService(redis);
    await limits.chargeMutation(ORG, 1);
    await expect(limits.chargeMutation(ORG, 1)).rejects.toBeInstanceOf(LimitExceededError);
    expect(Object.fromEntries(counts)).toEqual({ [`limit:link-mutations:${ORG}`]: 1 });
  });
});

describe('window helpers', () => {
  it('a UTC day window is keyed by the date and lives until the next 00:00 UTC', () => {
    const now = Date.parse('2026-03-04T23:59:00.000Z');
    expect(utcDayWindow('transcripts', ORG, 7, now)).toEqual({ key: `limit:transcripts:${ORG}:2026-03-04`, limit: 7, ttlMs: 60_000 });
  });

  it('hour and day windows are fixed windows of 3600 s and 86400 s', () => {
    expect(hourAndDayWindows('link-creation', ORG, 5, 9)).toEqual([
      { key: `limit:link-creation:hour:${ORG}`, limit: 5, ttlMs: 3_600_000 },
      { key: `limit:link-creation:day:${ORG}`, limit: 9, ttlMs: 86_400_000 },
    ]);
  });
});
