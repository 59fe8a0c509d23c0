import { intentScore, overallIntentFor, type BuyingIntent, type IntentInput } from './intent';

/**
 * docs/api.md §13.4, DECISIONS "Intent score": values none 0, low 1, medium 2, high 3; a weighted
 * mean with weight 0.5^(age_days/14) (ages from the calculation time, negative ages count as 0,
 * sessions without buyingIntent left out of the mean) plus max(0, min(0.5, 0.1 * (n30 - 1))) where
 * n30 counts every session of the last 30 days, clamped to 0..3. All expected values below are
 * worked out by hand.
 */
const AS_OF = new Date('2026-06-30T12:00:00.000Z');
const DAY_MS = 86_400_000;

const daysAgo = (days: number, buyingIntent: BuyingIntent | null): IntentInput => ({
  startTime: new Date(AS_OF.getTime() - days * DAY_MS),
  buyingIntent,
});

describe('intentScore', () => {
  it('is 0 for no sessions (the bonus of 0.1 * (0 - 1) is floored at 0)', () => {
    expect(intentScore([], AS_OF)).toBe(0);
  });

  it('is the intent value of a single fresh session, with no bonus', () => {
    expect(intentScore([daysAgo(0, 'none')], AS_OF)).toBe(0);
    expect(intentScore([daysAgo(0, 'low')], AS_OF)).toBe(1);
    expect(intentScore([daysAgo(0, 'medium')], AS_OF)).toBe(2);
    expect(intentScore([daysAgo(0, 'high')], AS_OF)).toBe(3);
  });

  it('does not decay a single session: the mean of one value is that value at any age', () => {
    // Weight 0.5^(100/14) cancels out in a mean of one; 100 days is outside the bonus window.
    expect(intentScore([daysAgo(100, 'medium')], AS_OF)).toBeCloseTo(2, 12);
  });

  it('halves the weight every 14 days', () => {
    // high at age 0 (w 1), none at age 14 (w 0.5): mean (3*1 + 0*0.5) / 1.5 = 2; bonus 0.1 → 2.1.
    expect(intentScore([daysAgo(0, 'high'), daysAgo(14, 'none')], AS_OF)).toBeCloseTo(2.1, 12);
    // low at age 0 (w 1), high at age 28 (w 0.25): mean (1 + 0.75) / 1.25 = 1.4; bonus 0.1 → 1.5.
    expect(intentScore([daysAgo(0, 'low'), daysAgo(28, 'high')], AS_OF)).toBeCloseTo(1.5, 12);
  });

  it('uses fractional day ages', () => {
    // high at age 7 (w 0.5^0.5 = 1/√2), none at age 0 (w 1):
    // mean 3(1/√2) / (1 + 1/√2) = 3 / (√2 + 1) = 3(√2 - 1) = 1.2426406871...; bonus 0.1.
    expect(intentScore([daysAgo(7, 'high'), daysAgo(0, 'none')], AS_OF)).toBe(1.342641);
    // high at 12 hours (w 0.5^(0.5/14)), none at 14.5 days (w 0.5^(14.5/14)): the ratio is 2:1,
    // so the mean is 3 * 2/3 = 2; bonus 0.1 → 2.1.
    expect(intentScore([daysAgo(0.5, 'high'), daysAgo(14.5, 'none')], AS_OF)).toBeCloseTo(2.1, 12);
  });

  it('rounds the score to six decimals', () => {
    // low at age 0 (w 1), medium at age 42 (w 0.125; outside the 30-day window, so no bonus):
    // mean (1 + 0.25) / 1.125 = 10/9 = 1.1111111...
    expect(intentScore([daysAgo(0, 'low'), daysAgo(42, 'medium')], AS_OF)).toBe(1.111111);
    // A lone high session is exactly 3 whatever its weight.
    expect(intentScore([daysAgo(3.3, 'high')], AS_OF)).toBe(3);
  });

  it('leaves sessions without buyingIntent out of the mean but counts them for the bonus', () => {
    // mean over the one low session = 1 (nulls as 0 would give 1/3); n30 = 3 → bonus 0.2 → 1.2.
    expect(intentScore([daysAgo(0, 'low'), daysAgo(1, null), daysAgo(2, null)], AS_OF)).toBeCloseTo(1.2, 12);
  });

  it('has a mean of 0 when no session has a buyingIntent, leaving only the bonus', () => {
    expect(intentScore([daysAgo(0, null)], AS_OF)).toBe(0);
    expect(intentScore([daysAgo(0, null), daysAgo(3, null), daysAgo(10, null)], AS_OF)).toBeCloseTo(0.2, 12);
  });

  it('adds 0.1 per extra session of the last 30 days, at most 0.5', () => {
    const none = (count: number) => Array.from({ length: count }, (_, i) => daysAgo(i, 'none'));
    expect(intentScore(none(2), AS_OF)).toBeCloseTo(0.1, 12);
    expect(intentScore(none(5), AS_OF)).toBeCloseTo(0.4, 12);
    expect(intentScore(none(6), AS_OF)).toBeCloseTo(0.5, 12);
    expect(intentScore(none(7), AS_OF)).toBeCloseTo(0.5, 12);
    expect(intentScore(none(12), AS_OF)).toBeCloseTo(0.5, 12);
  });

  it('counts for the bonus only sessions of the last 30 days', () => {
    // none at 0, 29 and 29.9 days: n30 = 3 → 0.2; the ones at 31 and 60 days do not count.
    const sessions = [
      daysAgo(0, 'none'),
      daysAgo(29, 'none'),
      daysAgo(29.9, 'none'),
      daysAgo(31, 'none'),
      daysAgo(60, 'none'),
    ];
    expect(intentScore(sessions, AS_OF)).toBeCloseTo(0.2, 12);
    expect(intentScore([daysAgo(0, 'none'), daysAgo(31, 'none')], AS_OF)).toBe(0);
  });

  it('clamps to 3', () => {
    // mean 3 plus bonus 0.5 would be 3.5.
    const sessions = Array.from({ length: 6 }, (_, i) => daysAgo(i, 'high'));
    expect(intentScore(sessions, AS_OF)).toBe(3);
    // mean 3, bonus 0.1 → 3.1 → 3.
    expect(intentScore([daysAgo(0, 'high'), daysAgo(1, 'high')], AS_OF)).toBe(3);
  });

  it('treats a session starting after the calculation time as age 0', () => {
    // low 14 days in the future (w 1, not 2), high 14 days ago (w 0.5):
    // mean (1 + 1.5) / 1.5 = 5/3; both in the window → bonus 0.1 → 1.7666...
    // (A negative age would give weight 2: (2 + 1.5) / 2.5 + 0.1 = 1.5.)
    const future: IntentInput = { startTime: new Date(AS_OF.getTime() + 14 * DAY_MS), buyingIntent: 'low' };
    expect(intentScore([future, daysAgo(14, 'high')], AS_OF)).toBe(1.766667);
  });

  it('counts a future session for the bonus', () => {
    const future: IntentInput = { startTime: new Date(AS_OF.getTime() + 90 * DAY_MS), buyingIntent: 'none' };
    expect(intentScore([future, daysAgo(0, 'none')], AS_OF)).toBeCloseTo(0.1, 12);
  });

  it('measures ages from the given calculation time', () => {
    const sessions = [daysAgo(0, 'high'), daysAgo(14, 'none')];
    // 14 days later: high at age 14 (w 0.5), none at age 28 (w 0.25): mean 1.5 / 0.75 = 2; +0.1.
    expect(intentScore(sessions, new Date(AS_OF.getTime() + 14 * DAY_MS))).toBeCloseTo(2.1, 12);
    // 20 days later the older one is 34 days old: no bonus; weights 0.5^(20/14), 0.5^(34/14):
    // mean 3 / (1 + 0.5^(14/14)) = 3 / 1.5 = 2 (the ratio of the weights stays 2:1).
    expect(intentScore(sessions, new Date(AS_OF.getTime() + 20 * DAY_MS))).toBeCloseTo(2, 12);
  });

  it('does not depend on the order of the sessions', () => {
    const sessions = [daysAgo(0, 'low'), daysAgo(7, 'high'), daysAgo(21, 'medium'), daysAgo(3, null)];
    const expected = intentScore(sessions, AS_OF);
    expect(intentScore([...sessions].reverse(), AS_OF)).toBe(expected);
    expect(intentScore([sessions[2], sessions[0], sessions[3], sessions[1]], AS_OF)).toBe(expected);
  });
});

describe('overallIntentFor', () => {
  it('is high from 2, medium from 1, low below', () => {
    expect(overallIntentFor(3)).toBe('high');
    expect(overallIntentFor(2)).toBe('high');
    expect(overallIntentFor(1.9999999)).toBe('medium');
    expect(overallIntentFor(1)).toBe('medium');
    expect(overallIntentFor(0.9999999)).toBe('low');
    expect(overallIntentFor(0)).toBe('low');
  });

  it('classifies computed scores exactly at the thresholds', () => {
    // medium alone: 2 → high; low alone: 1 → medium; none with one extra session: 0.1 → low.
    expect(overallIntentFor(intentScore([daysAgo(0, 'medium')], AS_OF))).toBe('high');
    expect(overallIntentFor(intentScore([daysAgo(0, 'low')], AS_OF))).toBe('medium');
    expect(overallIntentFor(intentScore([daysAgo(0, 'none'), daysAgo(1, 'none')], AS_OF))).toBe('low');
  });
});
