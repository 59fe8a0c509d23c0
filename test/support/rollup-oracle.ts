import freeMailProviders from 'email-providers/all.json';
import { getDomain } from 'tldts';
import type { Person } from './api-types';

/**
 * Reference implementation of the person and account rollups, written from docs/api.md §13.3–§13.5 and
 * DECISIONS "Sessions, people, accounts (issue 3)" alone (nothing from src/). Input: the last body
 * ingested for each session id of one organization. Where those texts leave a choice open (a full
 * tie, how an absent source or assessedAt is shown), the oracle lists every acceptable value.
 */

export type IngestBody = Record<string, unknown>;

const DAY_MS = 86_400_000;
const INTENT_VALUE: Record<string, number> = { none: 0, low: 1, medium: 2, high: 3 };
const FREE_MAIL = new Set<string>(freeMailProviders);

export interface QualificationFields {
  qualificationStatus: string | null;
  qualificationRationale: string | null;
  qualificationSource: string | null;
  qualificationAssessedAt: string | null;
  qualificationRubricVersionId: string | null;
}

export interface OraclePerson {
  /** Every field with exactly one right value (docs/api.md §13.3–§13.5). */
  fields: {
    email: string;
    name: string | null;
    phone: string | null;
    business: string | null;
    totalSessions: number;
    firstSeenAt: string;
    lastSeenAt: string;
    totalTimeSpentSeconds: number;
    firstSource: string | null;
    lastSource: string | null;
    lastLocation: string | null;
    buyingIntent: string | null;
    accountDomain: string | null;
    summaryMarkdown: string | null;
  };
  /** The acceptable qualification blocks (more than one only on an unresolved tie or display choice). */
  qualification: QualificationFields[];
  sessionIds: string[];
  bookedSessions: number;
  /** intentScore and the acceptable overallIntent values, ages measured from `calculatedAt`. */
  intent(calculatedAt: string): { score: number; levels: string[] };
}

export interface OracleAccount {
  fields: {
    accountDomain: string;
    totalUsers: number;
    totalSessions: number;
    bookedSessions: number;
    highIntentUsers: number;
    qualifiedUsers: number;
    totalTimeSpentSeconds: number;
    lastSeenAt: string;
  };
  companyName: (string | null)[];
  summaryMarkdown: (string | null)[];
}

/** What the service shows of a person that the account rollup counts (already checked per person). */
export type PersonVerdict = Pick<Person, 'qualificationStatus' | 'overallIntent'>;

interface Visible {
  id: string;
  body: IngestBody;
  start: number;
  end: number | null;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const nonEmpty = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const iso = (ms: number) => new Date(ms).toISOString();

/** Only production, analyzed sessions count (defaults: production, analyzed). */
export function isVisible(body: IngestBody): boolean {
  return (body.environment ?? 'production') === 'production' && (body.analysisStatus ?? 'analyzed') === 'analyzed';
}

/** The person key: the lower-cased email; an empty or absent email is none. */
export function personKey(body: IngestBody): string | null {
  const email = nonEmpty(body.email);
  return email === null ? null : email.toLowerCase();
}

/** Registrable domain of the email's host (ICANN suffixes only); none for free mail (host or registrable domain listed). */
export function accountDomainOf(email: string): string | null {
  const host = email
    .slice(email.lastIndexOf('@') + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  const registrable = getDomain(host, { allowPrivateDomains: false });
  if (!registrable || FREE_MAIL.has(host) || FREE_MAIL.has(registrable)) return null;
  return registrable;
}

/** Top-level utmSource / geoCountry mirror `tracking`; tracking wins when it has the field. */
function tracked(body: IngestBody, field: 'utmSource' | 'geoCountry' | 'geoRegion' | 'geoCity'): string | null {
  const tracking = body.tracking;
  if (tracking !== null && typeof tracking === 'object' && field in tracking)
    return str((tracking as Record<string, unknown>)[field]);
  return str(body[field]);
}

/** Later first: startTime, then id (DECISIONS: "latest = startTime, then id"). */
const latestFirst = (a: Visible, b: Visible) => b.start - a.start || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function latestNonEmpty(sessions: Visible[], pick: (s: Visible) => unknown): string | null {
  for (const s of sessions) {
    const value = nonEmpty(pick(s));
    if (value !== null) return value;
  }
  return null;
}

function location(s: Visible): string | null {
  const parts = [tracked(s.body, 'geoCity'), tracked(s.body, 'geoRegion'), tracked(s.body, 'geoCountry')].filter(
    (p): p is string => !!p,
  );
  return parts.length > 0 ? parts.join(', ') : null;
}

/**
 * The latest assessment: by qualificationAssessedAt (startTime when absent), a manual one before an
 * automatic one at the same instant (absent source = automatic), then startTime. Sessions equal on all
 * three are an unresolved tie: each is acceptable.
 */
function qualificationOf(sessions: Visible[]): QualificationFields[] {
  const assessments = sessions
    .filter((s) => str(s.body.qualificationStatus) !== null)
    .map((s) => {
      const assessedAt = str(s.body.qualificationAssessedAt);
      return {
        s,
        at: assessedAt === null ? s.start : Date.parse(assessedAt),
        manual: s.body.qualificationSource === 'manual' ? 1 : 0,
      };
    });
  if (assessments.length === 0) {
    return [
      {
        qualificationStatus: null,
        qualificationRationale: null,
        qualificationSource: null,
        qualificationAssessedAt: null,
        qualificationRubricVersionId: null,
      },
    ];
  }
  const rank = (a: (typeof assessments)[number], b: (typeof assessments)[number]) =>
    b.at - a.at || b.manual - a.manual || b.s.start - a.s.start;
  assessments.sort(rank);
  const top = assessments.filter((a) => rank(a, assessments[0]) === 0);
  return top.flatMap(({ s }) => {
    const source = str(s.body.qualificationSource);
    const assessedAt = str(s.body.qualificationAssessedAt);
    // How an absent source / assessedAt is shown is not decided: as given (null) or as it counts.
    const sources = source === null ? [null, 'automatic'] : [source];
    const instants = assessedAt === null ? [null, iso(s.start)] : [iso(Date.parse(assessedAt))];
    return sources.flatMap((qualificationSource) =>
      instants.map((qualificationAssessedAt) => ({
        qualificationStatus: str(s.body.qualificationStatus),
        qualificationRationale: str(s.body.qualificationRationale),
        qualificationSource,
        qualificationAssessedAt,
        qualificationRubricVersionId: str(s.body.qualificationRubricVersionId),
      })),
    );
  });
}

/** docs/api.md §13.4 (intent) with DECISIONS: no-intent sessions count only for the 30-day bonus; negative ages are 0. */
function intentOf(sessions: Visible[], calculatedAt: string): { score: number; levels: string[] } {
  const reference = Date.parse(calculatedAt);
  let weighted = 0;
  let weights = 0;
  let recent = 0;
  for (const s of sessions) {
    const ageDays = Math.max(0, (reference - s.start) / DAY_MS);
    if (ageDays <= 30) recent += 1;
    const intent = str(s.body.buyingIntent);
    if (intent === null) continue;
    const weight = 0.5 ** (ageDays / 14);
    weighted += weight * INTENT_VALUE[intent];
    weights += weight;
  }
  const mean = weights > 0 ? weighted / weights : 0;
  const bonus = Math.max(0, Math.min(0.5, 0.1 * (recent - 1)));
  const score = Math.min(3, Math.max(0, mean + bonus));
  return { score, levels: levelsFor(score) };
}

/** high >= 2, medium >= 1, else low; a score within rounding noise of a bound may land on either side. */
function levelsFor(score: number): string[] {
  const level = (x: number) => (x >= 2 ? 'high' : x >= 1 ? 'medium' : 'low');
  return [...new Set([level(score), level(score - 1e-9), level(score + 1e-9)])];
}

function visibleSessions(bodies: Map<string, IngestBody>): Map<string, Visible[]> {
  const byPerson = new Map<string, Visible[]>();
  for (const [id, body] of bodies) {
    const key = personKey(body);
    if (key === null || !isVisible(body)) continue;
    const end = str(body.endTime);
    const visible: Visible = {
      id: id.toLowerCase(),
      body,
      start: Date.parse(String(body.startTime)),
      end: end === null ? null : Date.parse(end),
    };
    byPerson.set(key, [...(byPerson.get(key) ?? []), visible]);
  }
  return byPerson;
}

/** Every person of the organization, keyed by lower-cased email. */
export function expectedPeople(bodies: Map<string, IngestBody>): Map<string, OraclePerson> {
  const people = new Map<string, OraclePerson>();
  for (const [email, unsorted] of visibleSessions(bodies)) {
    const sessions = [...unsorted].sort(latestFirst);
    const latest = sessions[0];
    const earliest = sessions[sessions.length - 1];
    const withLocation = sessions.find((s) => location(s) !== null);
    people.set(email, {
      fields: {
        email,
        name: latestNonEmpty(sessions, (s) => s.body.name),
        phone: latestNonEmpty(sessions, (s) => s.body.phone),
        business: latestNonEmpty(sessions, (s) => s.body.business),
        totalSessions: sessions.length,
        firstSeenAt: iso(Math.min(...sessions.map((s) => s.start))),
        lastSeenAt: iso(Math.max(...sessions.map((s) => s.end ?? s.start))),
        totalTimeSpentSeconds: sessions.reduce(
          (sum, s) => sum + (s.end === null ? 0 : Math.floor((s.end - s.start) / 1000)),
          0,
        ),
        firstSource: tracked(earliest.body, 'utmSource'),
        lastSource: tracked(latest.body, 'utmSource'),
        lastLocation: withLocation ? location(withLocation) : null,
        buyingIntent: str(latest.body.buyingIntent),
        accountDomain: accountDomainOf(email),
        summaryMarkdown: latestNonEmpty(sessions, (s) => s.body.summaryMarkdown),
      },
      qualification: qualificationOf(sessions),
      sessionIds: sessions.map((s) => s.id),
      bookedSessions: sessions.filter((s) => s.body.bookedStatus === 'booked').length,
      intent: (calculatedAt) => intentOf(sessions, calculatedAt),
    });
  }
  return people;
}

/** Values held by the items that are greatest by `order`: the acceptable answers to "the latest one's". */
function ofLatest<T>(items: T[], order: (item: T) => number, value: (item: T) => string | null): (string | null)[] {
  if (items.length === 0) return [null];
  const best = Math.max(...items.map(order));
  return [...new Set(items.filter((item) => order(item) === best).map(value))];
}

/**
 * The account of a registrable domain, or null when it has no people. Qualification and intent of a
 * person come from `verdicts` (checked against the oracle per person before).
 */
export function expectedAccount(
  domain: string,
  people: Map<string, OraclePerson>,
  verdicts: Map<string, PersonVerdict>,
): OracleAccount | null {
  const members = [...people.values()].filter((p) => p.fields.accountDomain === domain);
  if (members.length === 0) return null;
  const seen = (p: OraclePerson) => Date.parse(p.fields.lastSeenAt);

  const counts = new Map<string, number>();
  for (const p of members)
    if (p.fields.business !== null) counts.set(p.fields.business, (counts.get(p.fields.business) ?? 0) + 1);
  const most = Math.max(0, ...counts.values());
  const tiedBusinesses = members.filter((p) => p.fields.business !== null && counts.get(p.fields.business) === most);

  return {
    fields: {
      accountDomain: domain,
      totalUsers: members.length,
      totalSessions: members.reduce((sum, p) => sum + p.fields.totalSessions, 0),
      bookedSessions: members.reduce((sum, p) => sum + p.bookedSessions, 0),
      highIntentUsers: members.filter((p) => verdicts.get(p.fields.email)?.overallIntent === 'high').length,
      qualifiedUsers: members.filter((p) => verdicts.get(p.fields.email)?.qualificationStatus === 'qualified').length,
      totalTimeSpentSeconds: members.reduce((sum, p) => sum + p.fields.totalTimeSpentSeconds, 0),
      lastSeenAt: iso(Math.max(...members.map(seen))),
    },
    companyName: ofLatest(tiedBusinesses, seen, (p) => p.fields.business),
    summaryMarkdown: ofLatest(
      members.filter((p) => p.fields.summaryMarkdown !== null),
      seen,
      (p) => p.fields.summaryMarkdown,
    ),
  };
}
