import { plainToInstance } from 'class-transformer';
import { IsOptional, validateSync } from 'class-validator';
import { IsTimestamp, ToTimestamp, isoOrNull, parseTimestamp } from './timestamps';

/** docs/api.md §1.1: requests take any ISO 8601 timestamp with an offset or Z; one without offset is UTC. */
const iso = (value: string) => parseTimestamp(value)?.toISOString() ?? null;

describe('parseTimestamp', () => {
  it('reads a date alone as midnight UTC', () => {
    expect(iso('2026-11-22')).toBe('2026-11-22T00:00:00.000Z');
  });

  it('reads a date and time without offset as UTC', () => {
    expect(iso('2026-11-22T10:00:00')).toBe('2026-11-22T10:00:00.000Z');
    expect(iso('2026-11-22T10:00')).toBe('2026-11-22T10:00:00.000Z');
    expect(iso('2026-11-22 10:00:00')).toBe('2026-11-22T10:00:00.000Z');
    expect(iso('2026-11-22t10:00:00')).toBe('2026-11-22T10:00:00.000Z');
  });

  it('reads Z as UTC', () => {
    expect(iso('2026-11-22T10:00:00Z')).toBe('2026-11-22T10:00:00.000Z');
    expect(iso('2026-11-22T10:00:00z')).toBe('2026-11-22T10:00:00.000Z');
  });

  it('applies +hh:mm, -hhmm and +hh offsets', () => {
    expect(iso('2026-11-22T10:00:00+02:00')).toBe('2026-11-22T08:00:00.000Z');
    expect(iso('2026-11-22T10:00:00+05:30')).toBe('2026-11-22T04:30:00.000Z');
    expect(iso('2026-11-22T10:00:00-0800')).toBe('2026-11-22T18:00:00.000Z');
    expect(iso('2026-11-22T10:00:00-03:45')).toBe('2026-11-22T13:45:00.000Z');
    expect(iso('2026-11-22T10:00:00+01')).toBe('2026-11-22T09:00:00.000Z');
    expect(iso('2026-11-22T10:00:00+00:00')).toBe('2026-11-22T10:00:00.000Z');
    expect(iso('2026-11-22T10:00:00-00:00')).toBe('2026-11-22T10:00:00.000Z');
  });

  it('crosses day, month and year boundaries with the offset', () => {
    expect(iso('2026-01-01T01:00:00+02:00')).toBe('2025-12-31T23:00:00.000Z');
    expect(iso('2026-12-31T23:30:00-01:00')).toBe('2027-01-01T00:30:00.000Z');
  });

  it('keeps fractions to the millisecond', () => {
    expect(iso('2026-11-22T10:00:00.5Z')).toBe('2026-11-22T10:00:00.500Z');
    expect(iso('2026-11-22T10:00:00.05Z')).toBe('2026-11-22T10:00:00.050Z');
    expect(iso('2026-11-22T10:00:00.123Z')).toBe('2026-11-22T10:00:00.123Z');
    expect(iso('2026-11-22T10:00:00.123456+01:00')).toBe('2026-11-22T09:00:00.123Z');
    expect(iso('2026-11-22T10:00:00,25Z')).toBe('2026-11-22T10:00:00.250Z');
  });

  it('accepts 29 February in a leap year only', () => {
    expect(iso('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
    expect(iso('2000-02-29T12:00:00Z')).toBe('2000-02-29T12:00:00.000Z');
    expect(parseTimestamp('2026-02-29')).toBeNull();
    expect(parseTimestamp('1900-02-29')).toBeNull();
  });

  it('refuses dates and times that do not exist', () => {
    for (const value of [
      '2026-02-30',
      '2026-02-30T10:00:00Z',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-01-32',
      '2026-01-01T24:00:00Z',
      '2026-01-01T10:60:00Z',
      '2026-01-01T10:00:60Z',
    ]) {
      expect([value, parseTimestamp(value)]).toEqual([value, null]);
    }
  });

  it('refuses garbage', () => {
    for (const value of [
      '',
      'yesterday',
      'now',
      '2026',
      '2026-11',
      '20261122',
      '2026-1-22',
      '22/11/2026',
      '2026-11-22T',
      '2026-11-22T10',
      '2026-11-22T10:00:00+2',
      '2026-11-22T10:00:00 UTC',
      '2026-11-22T10:00:00.Z',
      '1763805600000',
    ]) {
      expect([value, parseTimestamp(value)]).toEqual([value, null]);
    }
  });

  it('refuses offsets with more than 59 minutes', () => {
    // Not an ISO 8601 offset; it must not silently turn into 6 h 39 min.
    expect(parseTimestamp('2026-11-22T10:00:00+05:99')).toBeNull();
  });

  it('keeps four-digit years below 100 as they are', () => {
    // ISO 8601 year 0050 is year 50, not 1950.
    expect(parseTimestamp('0050-06-15T00:00:00Z')?.getUTCFullYear()).toBe(50);
  });
});

class Sample {
  @IsOptional()
  @ToTimestamp()
  @IsTimestamp()
  at?: Date | string | null;
}

const validate = (at: unknown) => {
  const instance = plainToInstance(Sample, { at });
  return { value: instance.at, errors: validateSync(instance) };
};

describe('ToTimestamp / IsTimestamp', () => {
  it('turns a valid string into a Date that passes', () => {
    const { value, errors } = validate('2026-11-22T12:00:00+02:00');
    expect(value).toEqual(new Date('2026-11-22T10:00:00.000Z'));
    expect(errors).toEqual([]);
  });

  it('leaves an invalid string as it is and fails it as isIso8601', () => {
    const { value, errors } = validate('2026-02-30');
    expect(value).toBe('2026-02-30');
    expect(errors).toHaveLength(1);
    expect(Object.keys(errors[0].constraints ?? {})).toEqual(['isIso8601']);
  });

  it('fails a non-string', () => {
    const { errors } = validate(1763805600000);
    expect(Object.keys(errors[0]?.constraints ?? {})).toEqual(['isIso8601']);
  });

  it('leaves null and absent to IsOptional', () => {
    expect(validate(null).errors).toEqual([]);
    expect(validate(undefined).errors).toEqual([]);
  });
});

describe('isoOrNull', () => {
  it('writes UTC with milliseconds and Z, null for null', () => {
    expect(isoOrNull(new Date(Date.UTC(2026, 10, 22, 10, 0, 0)))).toBe('2026-11-22T10:00:00.000Z');
    expect(isoOrNull(null)).toBeNull();
    expect(isoOrNull(undefined)).toBeNull();
  });
});
