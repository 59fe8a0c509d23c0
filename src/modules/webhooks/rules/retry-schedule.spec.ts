import { DEACTIVATE_AFTER_MS, MAX_ATTEMPTS, retryDelayMs, shouldDeactivate } from './retry-schedule';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe('webhook retry schedule', () => {
  it('waits about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h at the default base, then gives up', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelayMs(attempt, 5000, middle))).toEqual([
      5 * SECOND,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      10 * HOUR,
    ]);
    expect(retryDelayMs(8, 5000, middle)).toBeNull();
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('scales with the base and never shrinks from one attempt to the next', () => {
    expect(retryDelayMs(1, 10, () => 0.5)).toBe(10);
    expect(retryDelayMs(2, 10, () => 0.5)).toBe(600);
    for (let attempt = 1; attempt < 7; attempt++) {
      expect(retryDelayMs(attempt + 1, 5000, () => 0.5)!).toBeGreaterThanOrEqual(
        retryDelayMs(attempt, 5000, () => 0.5)!,
      );
    }
  });

  it('jitters by at most a fifth either way', () => {
    expect(retryDelayMs(2, 5000, () => 0)).toBe(4 * MINUTE);
    expect(retryDelayMs(2, 5000, () => 0.999999)).toBe(6 * MINUTE);
    const seen = new Set(Array.from({ length: 20 }, () => retryDelayMs(3, 5000)));
    expect(seen.size).toBeGreaterThan(1);
    for (const delay of seen) expect(delay! >= 24 * MINUTE && delay! <= 36 * MINUTE).toBe(true);
  });

  it('deactivates an endpoint only after five days of failures', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(shouldDeactivate(null, now)).toBe(false);
    expect(shouldDeactivate(new Date(now.getTime() - DEACTIVATE_AFTER_MS + 1), now)).toBe(false);
    expect(shouldDeactivate(new Date(now.getTime() - 5 * 24 * HOUR), now)).toBe(true);
  });
});
