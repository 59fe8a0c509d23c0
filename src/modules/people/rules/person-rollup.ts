import { accountDomainOf } from '../../accounts';
import { intentScore, overallIntentFor, type BuyingIntent, type OverallIntent } from './intent';

/** What a person's rollup reads of each of its (visible) sessions. */
export interface SessionFacts {
  id: string;
  startTime: Date;
  endTime: Date | null;
  name: string | null;
  phone: string | null;
  business: string | null;
  utmSource: string | null;
  geoCity: string | null;
  geoRegion: string | null;
  geoCountry: string | null;
  qualificationStatus: string | null;
  qualificationRationale: string | null;
  qualificationSource: string | null;
  qualificationAssessedAt: Date | null;
  qualificationRubricVersionId: string | null;
  buyingIntent: BuyingIntent | null;
  bookedStatus: string | null;
  summaryMarkdown: string | null;
}

export interface Qualification {
  status: string;
  rationale: string | null;
  source: string | null;
  assessedAt: Date | null;
  rubricVersionId: string | null;
}

export interface PersonRollup {
  emailKey: string;
  name: string | null;
  phone: string | null;
  business: string | null;
  totalSessions: number;
  bookedSessions: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
  totalTimeSpentSeconds: number;
  firstSource: string | null;
  lastSource: string | null;
  lastLocation: string | null;
  qualification: Qualification | null;
  buyingIntent: BuyingIntent | null;
  accountDomain: string | null;
  summaryMarkdown: string | null;
  intentScore: number;
  overallIntent: OverallIntent;
  intentCalculatedAt: Date;
}

const byStart = (a: SessionFacts, b: SessionFacts) =>
  a.startTime.getTime() - b.startTime.getTime() || compareIds(a.id, b.id);
const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const nonEmpty = (value: string | null): value is string => value !== null && value.trim() !== '';

/** The latest non-empty value of a field, sessions oldest first. */
function latestNonEmpty(sessions: SessionFacts[], pick: (s: SessionFacts) => string | null): string | null {
  for (let i = sessions.length - 1; i >= 0; i -= 1) {
    const value = pick(sessions[i]);
    if (nonEmpty(value)) return value;
  }
  return null;
}

function locationOf(session: SessionFacts): string | null {
  const parts = [session.geoCity, session.geoRegion, session.geoCountry].filter(nonEmpty);
  return parts.length > 0 ? parts.join(', ') : null;
}

/**
 * The effective qualification (docs/api.md §13.3): the latest assessment, where an automatic one never
 * overrides a later-or-equal manual one. Assessments order by assessedAt (the session start when
 * absent), manual before automatic at the same instant, then start time and id.
 */
export function effectiveQualification(sessions: readonly SessionFacts[]): Qualification | null {
  let best: SessionFacts | null = null;
  const sortKey = (s: SessionFacts) => [
    (s.qualificationAssessedAt ?? s.startTime).getTime(),
    s.qualificationSource === 'manual' ? 1 : 0,
    s.startTime.getTime(),
  ];
  for (const session of sessions) {
    if (session.qualificationStatus === null) continue;
    if (best === null || isLater(sortKey(session), session.id, sortKey(best), best.id)) best = session;
  }
  return best === null
    ? null
    : {
        status: best.qualificationStatus as string,
        rationale: best.qualificationRationale,
        source: best.qualificationSource,
        assessedAt: best.qualificationAssessedAt,
        rubricVersionId: best.qualificationRubricVersionId,
      };
}

function isLater(a: number[], aId: string, b: number[], bId: string): boolean {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i] > b[i];
  return compareIds(aId, bId) > 0;
}

/** A person from scratch: every field of docs/api.md §2.4 from the person's sessions (at least one). */
export function rollUpPerson(emailKey: string, sessions: readonly SessionFacts[], calculatedAt: Date): PersonRollup {
  const ordered = [...sessions].sort(byStart);
  const earliest = ordered[0];
  const latest = ordered[ordered.length - 1];
  let lastSeen = 0;
  let totalSeconds = 0;
  for (const session of ordered) {
    const end = session.endTime ?? session.startTime;
    lastSeen = Math.max(lastSeen, end.getTime());
    totalSeconds += Math.floor(Math.max(0, end.getTime() - session.startTime.getTime()) / 1000);
  }
  const located = [...ordered].reverse().find((s) => locationOf(s) !== null);
  const score = intentScore(ordered, calculatedAt);
  return {
    emailKey,
    name: latestNonEmpty(ordered, (s) => s.name),
    phone: latestNonEmpty(ordered, (s) => s.phone),
    business: latestNonEmpty(ordered, (s) => s.business),
    totalSessions: ordered.length,
    bookedSessions: ordered.filter((s) => s.bookedStatus === 'booked').length,
    firstSeenAt: earliest.startTime,
    lastSeenAt: new Date(lastSeen),
    totalTimeSpentSeconds: totalSeconds,
    firstSource: earliest.utmSource,
    lastSource: latest.utmSource,
    lastLocation: located ? locationOf(located) : null,
    qualification: effectiveQualification(ordered),
    buyingIntent: latest.buyingIntent,
    accountDomain: accountDomainOf(emailKey),
    summaryMarkdown: latestNonEmpty(ordered, (s) => s.summaryMarkdown),
    intentScore: score,
    overallIntent: overallIntentFor(score),
    intentCalculatedAt: calculatedAt,
  };
}
