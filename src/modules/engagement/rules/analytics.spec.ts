import { analyticsCsv, bucketKey, onUtcHour, previousRange, rangeProblem, uniqueMetrics } from './analytics';

const at = (iso: string) => new Date(iso);

describe('analytics rules', () => {
  describe('rangeProblem', () => {
    it('refuses an empty or reversed range', () => {
      expect(rangeProblem(at('2026-03-02T00:00:00Z'), at('2026-03-02T00:00:00Z'), 'day')).toBe(
        '`to` must be after `from`',
      );
      expect(rangeProblem(at('2026-03-02T00:00:00Z'), at('2026-03-01T00:00:00Z'), null)).toBe(
        '`to` must be after `from`',
      );
    });

    it('takes 31 days of hours and 731 days otherwise, not a millisecond more', () => {
      const from = at('2026-03-01T00:00:00Z');
      expect(rangeProblem(from, at('2026-04-01T00:00:00Z'), 'hour')).toBeNull();
      expect(rangeProblem(from, at('2026-04-01T00:00:00.001Z'), 'hour')).toBe(
        'the range may span at most 31 days with interval hour',
      );
      expect(rangeProblem(from, at('2028-03-01T00:00:00Z'), 'day')).toBeNull();
      expect(rangeProblem(from, at('2028-03-01T00:00:00.001Z'), null)).toBe('the range may span at most 731 days');
    });
  });

  it('previousRange is the range of the same duration just before from', () => {
    expect(previousRange(at('2026-03-08T00:00:00Z'), at('2026-03-15T12:00:00Z'))).toEqual({
      from: at('2026-02-28T12:00:00Z'),
      to: at('2026-03-08T00:00:00Z'),
    });
  });

  it('bucketKey writes the local start with the offset', () => {
    expect(bucketKey(at('2026-03-28T23:00:00Z'), 3600)).toBe('2026-03-29T00:00:00.000+01:00');
    expect(bucketKey(at('2026-03-08T05:00:00Z'), -18000)).toBe('2026-03-08T00:00:00.000-05:00');
    expect(bucketKey(at('2026-03-01T18:30:00Z'), 19800)).toBe('2026-03-02T00:00:00.000+05:30');
    expect(bucketKey(at('2026-03-01T00:00:00Z'), 0)).toBe('2026-03-01T00:00:00.000+00:00');
  });

  it('onUtcHour holds for whole UTC hours only', () => {
    expect(onUtcHour(at('2026-03-01T05:00:00Z'))).toBe(true);
    expect(onUtcHour(at('2026-03-01T05:30:00Z'))).toBe(false);
    expect(onUtcHour(at('2026-03-01T05:00:00.001Z'))).toBe(false);
  });

  it('uniqueMetrics keeps the first of each, in order', () => {
    expect(uniqueMetrics(['visitors', 'opens', 'visitors'])).toEqual(['visitors', 'opens']);
  });

  it('analyticsCsv writes a header and a line per row; null keys empty, formula-like keys defused', () => {
    expect(
      analyticsCsv(
        ['opens', 'visitors'],
        [
          { key: 'DE', opens: 3, visitors: 2 },
          { key: '=HYPERLINK("x")', opens: 1, visitors: 1 },
          { key: null, opens: 0, visitors: 1 },
        ],
      ),
    ).toBe('key,opens,visitors\r\nDE,3,2\r\n"\'=HYPERLINK(""x"")",1,1\r\n,0,1\r\n');
  });
});
