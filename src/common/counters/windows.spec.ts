import { endOfWindowOpenedAt, limitState, utcDayOf } from './windows';

const at = (iso: string) => Date.parse(iso);
const seconds = (iso: string) => Date.parse(iso) / 1000;
const DAY_MS = 86_400_000;

describe('utcDayOf: the daily quota resets at 00:00:00.000 UTC (docs/api.md §8.2)', () => {
  it('at 23:59:59.999 the day still ends at the next midnight; at 00:00:00.000 a new day begins', () => {
    expect(utcDayOf(at('2026-03-04T23:59:59.999Z'))).toEqual({
      date: '2026-03-04',
      endsAt: at('2026-03-05T00:00:00.000Z'),
    });
    expect(utcDayOf(at('2026-03-05T00:00:00.000Z'))).toEqual({
      date: '2026-03-05',
      endsAt: at('2026-03-06T00:00:00.000Z'),
    });
  });

  it('across a leap day and a year end', () => {
    expect(utcDayOf(at('2028-02-28T12:00:00.000Z'))).toEqual({
      date: '2028-02-28',
      endsAt: at('2028-02-29T00:00:00.000Z'),
    });
    expect(utcDayOf(at('2028-02-29T23:59:59.999Z'))).toEqual({
      date: '2028-02-29',
      endsAt: at('2028-03-01T00:00:00.000Z'),
    });
    expect(utcDayOf(at('2026-12-31T23:59:59.999Z'))).toEqual({
      date: '2026-12-31',
      endsAt: at('2027-01-01T00:00:00.000Z'),
    });
  });
});

describe('endOfWindowOpenedAt: a window opened by a charge ends on a whole second, never after its length', () => {
  it('rounds the end down, so the window starts at or before its first charge', () => {
    expect(endOfWindowOpenedAt(at('2026-03-04T10:15:30.000Z'), 60_000)).toBe(at('2026-03-04T10:16:30.000Z'));
    expect(endOfWindowOpenedAt(at('2026-03-04T10:15:30.999Z'), 60_000)).toBe(at('2026-03-04T10:16:30.000Z'));
    expect(endOfWindowOpenedAt(at('2026-03-04T23:59:59.999Z'), 3_600_000)).toBe(at('2026-03-05T00:59:59.000Z'));
    for (const now of [
      at('2026-03-04T10:15:30.000Z'),
      at('2026-03-04T10:15:30.001Z'),
      at('2026-03-04T10:15:30.999Z'),
    ]) {
      const end = endOfWindowOpenedAt(now, 60_000);
      expect(end % 1000).toBe(0);
      expect(end - 60_000).toBeLessThanOrEqual(now);
      expect(end - 60_000).toBeGreaterThan(now - 1000);
    }
  });
});

describe('limitState: X-RateLimit-Reset is the end of the window, Retry-After the whole seconds to it', () => {
  const dayQuota = (now: string) => limitState({ limit: 2000, endsAt: utcDayOf(at(now)).endsAt }, 2000, at(now));

  it('a daily quota spent at 23:59:59.999 UTC resets at the next midnight to the second, in 1 s', () => {
    expect(dayQuota('2026-03-04T23:59:59.999Z')).toEqual({
      limit: 2000,
      remaining: 0,
      resetAt: seconds('2026-03-05T00:00:00.000Z'),
      retryAfterSeconds: 1,
    });
  });

  it('one spent at 00:00:00.000 resets at the following midnight, in 86400 s', () => {
    expect(dayQuota('2026-03-05T00:00:00.000Z')).toEqual({
      limit: 2000,
      remaining: 0,
      resetAt: seconds('2026-03-06T00:00:00.000Z'),
      retryAfterSeconds: DAY_MS / 1000,
    });
  });

  it('a minute window: Reset = floor(now in seconds) + Retry-After, whatever the milliseconds', () => {
    const endsAt = endOfWindowOpenedAt(at('2026-03-04T10:15:00.250Z'), 60_000);
    for (const now of [
      '2026-03-04T10:15:00.250Z',
      '2026-03-04T10:15:00.999Z',
      '2026-03-04T10:15:30.500Z',
      '2026-03-04T10:15:59.000Z',
      '2026-03-04T10:15:59.999Z',
    ]) {
      const state = limitState({ limit: 120, endsAt }, 3, at(now));
      expect(state.resetAt).toBe(seconds('2026-03-04T10:16:00.000Z'));
      expect(state.resetAt).toBe(Math.floor(at(now) / 1000) + state.retryAfterSeconds);
      expect(state.remaining).toBe(117);
    }
    expect(limitState({ limit: 120, endsAt }, 0, at('2026-03-04T10:15:00.250Z')).retryAfterSeconds).toBe(60);
    expect(limitState({ limit: 120, endsAt }, 0, at('2026-03-04T10:15:59.999Z')).retryAfterSeconds).toBe(1);
  });

  it('never reports a negative remainder (a limit lowered below the count)', () => {
    expect(
      limitState({ limit: 5, endsAt: at('2026-03-04T10:16:00.000Z') }, 9, at('2026-03-04T10:15:00.000Z')).remaining,
    ).toBe(0);
  });
});
