/**
 * The intent score of docs/api.md §13.4: a recency-weighted mean of the sessions' buying intent
 * (weight 0.5^(age_days / 14), ages measured from the calculation time) plus a frequency bonus of
 * 0.1 per extra session in the last 30 days (at most 0.5), clamped to 0..3.
 */
export const BUYING_INTENTS = ['high', 'medium', 'low', 'none'] as const;
export type BuyingIntent = (typeof BUYING_INTENTS)[number];
export type OverallIntent = 'low' | 'medium' | 'high';

const INTENT_VALUE: Record<BuyingIntent, number> = { none: 0, low: 1, medium: 2, high: 3 };
const HALF_LIFE_DAYS = 14;
const FREQUENCY_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

export interface IntentInput {
  startTime: Date;
  buyingIntent: BuyingIntent | null;
}

export function intentScore(sessions: readonly IntentInput[], asOf: Date): number {
  let weightedSum = 0;
  let totalWeight = 0;
  let recentSessions = 0;
  for (const session of sessions) {
    // A session starting after the calculation time is as recent as can be, not "negative old".
    const ageDays = Math.max(0, (asOf.getTime() - session.startTime.getTime()) / DAY_MS);
    if (ageDays <= FREQUENCY_WINDOW_DAYS) recentSessions += 1;
    if (session.buyingIntent === null) continue;
    const weight = 0.5 ** (ageDays / HALF_LIFE_DAYS);
    weightedSum += weight * INTENT_VALUE[session.buyingIntent];
    totalWeight += weight;
  }
  const mean = totalWeight > 0 ? weightedSum / totalWeight : 0;
  const frequencyBonus = Math.max(0, Math.min(0.5, 0.1 * (recentSessions - 1)));
  // Six decimals: enough for any ranking, and a lone `high` session scores 3, not 2.9999999999999996.
  return Math.round(Math.min(3, Math.max(0, mean + frequencyBonus)) * 1e6) / 1e6;
}

export function overallIntentFor(score: number): OverallIntent {
  if (score >= 2) return 'high';
  if (score >= 1) return 'medium';
  return 'low';
}
