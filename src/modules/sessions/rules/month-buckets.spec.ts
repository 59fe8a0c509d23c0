import { utcMonthStart, wholeMonthsWithin } from './month-buckets';

const at = (iso: string) => new Date(iso);

describe('utcMonthStart', () => {
  it('is the first instant of the UTC month, whatever the local zone', () => {
    expect(utcMonthStart(at('2026-03-31T23:59:59.999Z'))).toEqual(at('2026-03-01T00:00:00Z'));
    expect(utcMonthStart(at('2026-12-15T10:00:00Z'), 1)).toEqual(at('2027-01-01T00:00:00Z'));
    expect(utcMonthStart(at('2026-01-15T10:00:00Z'), -1)).toEqual(at('2025-12-01T00:00:00Z'));
  });

  it('keeps years 0-99 (which Date.UTC would read as 1900-1999)', () => {
    expect(utcMonthStart(at('0026-03-15T00:00:00Z')).toISOString()).toBe('0026-03-01T00:00:00.000Z');
    expect(utcMonthStart(at('0099-12-31T00:00:00Z'), 1).toISOString()).toBe('0100-01-01T00:00:00.000Z');
  });
});

describe('wholeMonthsWithin', () => {
  it('is every month without bounds', () => {
    expect(wholeMonthsWithin(undefined, undefined)).toEqual({ start: undefined, end: undefined });
  });

  it('starts at the next month boundary unless the lower bound is one', () => {
    expect(wholeMonthsWithin(at('2026-02-10T00:00:00Z'), undefined)).toEqual({
      start: at('2026-03-01T00:00:00Z'),
      end: undefined,
    });
    expect(wholeMonthsWithin(at('2026-02-01T00:00:00Z'), undefined)).toEqual({
      start: at('2026-02-01T00:00:00Z'),
      end: undefined,
    });
    expect(wholeMonthsWithin(at('2026-02-01T00:00:00.001Z'), undefined)).toEqual({
      start: at('2026-03-01T00:00:00Z'),
      end: undefined,
    });
  });

  it('ends at the last month boundary at or before the inclusive upper bound', () => {
    expect(wholeMonthsWithin(undefined, at('2026-05-20T12:00:00Z'))).toEqual({
      start: undefined,
      end: at('2026-05-01T00:00:00Z'),
    });
    // April ends before 2026-05-01T00:00:00Z, so it is whole; that instant itself is counted from the rows.
    expect(wholeMonthsWithin(undefined, at('2026-05-01T00:00:00Z'))).toEqual({
      start: undefined,
      end: at('2026-05-01T00:00:00Z'),
    });
    expect(wholeMonthsWithin(undefined, at('2026-04-30T23:59:59.999Z'))).toEqual({
      start: undefined,
      end: at('2026-04-01T00:00:00Z'),
    });
  });

  it('is null when no whole month fits', () => {
    expect(wholeMonthsWithin(at('2026-02-10T00:00:00Z'), at('2026-03-20T00:00:00Z'))).toBeNull();
    expect(wholeMonthsWithin(at('2026-02-10T00:00:00Z'), at('2026-02-11T00:00:00Z'))).toBeNull();
    expect(wholeMonthsWithin(at('2026-03-01T00:00:00Z'), at('2026-03-31T23:59:59.999Z'))).toBeNull();
    expect(wholeMonthsWithin(at('2026-05-01T00:00:00Z'), at('2026-02-01T00:00:00Z'))).toBeNull();
  });

  it('keeps the months strictly between the bounds', () => {
    expect(wholeMonthsWithin(at('2026-01-15T00:00:00Z'), at('2026-04-15T00:00:00Z'))).toEqual({
      start: at('2026-02-01T00:00:00Z'),
      end: at('2026-04-01T00:00:00Z'),
    });
    expect(wholeMonthsWithin(at('2026-03-01T00:00:00Z'), at('2026-04-01T00:00:00Z'))).toEqual({
      start: at('2026-03-01T00:00:00Z'),
      end: at('2026-04-01T00:00:00Z'),
    });
  });
});
