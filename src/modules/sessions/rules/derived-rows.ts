import { isVisible, type SessionRecord } from './session-record';

/**
 * A session's columns that its derived rows read, as a write found or left the row (the repository's
 * SESSION_IMAGE). start_micros is start_time in microseconds since the epoch (int8 text): session_emails
 * keeps the instant exactly, which a Date (milliseconds) would not, and Citus takes it in a RETURNING
 * (an immutable expression, where formatting a timestamptz is not).
 */
export interface SessionImage {
  id: string;
  environment: SessionRecord['environment'];
  analysis_status: SessionRecord['analysisStatus'];
  start_micros: string;
  email_key: string | null;
  effective_qualification_status: string | null;
  buying_intent: string | null;
  booked_status: string | null;
}

/** One session written: as it was (null: inserted) and as it is (null: deleted). */
export interface SessionImageChange {
  before: SessionImage | null;
  after: SessionImage | null;
}

const FACETS = ['effective_qualification_status', 'buying_intent', 'booked_status'] as const;

/**
 * A signed change to the visible sessions of one UTC hour and facet values (session_count_deltas,
 * whose month the repository derives from the hour).
 */
export type SessionCountDelta = Pick<SessionImage, (typeof FACETS)[number]> & {
  /** The hour's first instant, UTC, as session_count_deltas.hour (timestamp) reads it. */
  hour: string;
  sessions: number;
};

/** A row of the email search's copy of the visible sessions that have an email (session_emails). */
export type SessionEmailRow = Pick<SessionImage, 'id' | (typeof FACETS)[number]> & {
  /** UTC, microseconds, `Z`. */
  start_time: string;
  email_key: string;
};

/** What a write of sessions does to the rows derived from them. */
export interface DerivedRowChanges {
  /** Appended to session_count_deltas; no zero sums. */
  counts: SessionCountDelta[];
  /** Ids of the sessions that left the email search. */
  unlisted: string[];
  /** Sessions that came into the email search or changed there, by id. */
  listed: SessionEmailRow[];
}

const visible = (s: SessionImage) => isVisible({ environment: s.environment, analysisStatus: s.analysis_status });
const searchable = (s: SessionImage | null): s is SessionImage & { email_key: string } =>
  s !== null && visible(s) && s.email_key !== null;

/** `value` rounded down to a multiple of `unit`: toward the past, before 1970 too. */
const floorTo = (value: bigint, unit: bigint): bigint => value - (((value % unit) + unit) % unit);

const MICROS_PER_SECOND = 1_000_000n;
const SECONDS_PER_HOUR = 3600n;

/** start_micros as its whole seconds (floored) and the microseconds past them. */
function instantOf(startMicros: string): { seconds: bigint; micros: bigint } {
  if (!/^-?\d+$/.test(startMicros)) throw new Error(`not microseconds since the epoch: ${startMicros}`);
  const total = BigInt(startMicros);
  const whole = floorTo(total, MICROS_PER_SECOND);
  return { seconds: whole / MICROS_PER_SECOND, micros: total - whole };
}

/** The UTC hour of start_micros, as session_count_deltas.hour (a timestamp) reads it. */
function hourOf(startMicros: string): string {
  const hourStart = floorTo(instantOf(startMicros).seconds, SECONDS_PER_HOUR);
  return new Date(Number(hourStart) * 1000).toISOString().replace(/\.000Z$/, '');
}

/** start_micros as timestamptz text to the microsecond. */
function timeOf(startMicros: string): string {
  const { seconds, micros } = instantOf(startMicros);
  return new Date(Number(seconds) * 1000).toISOString().replace(/\.000Z$/, `.${String(micros).padStart(6, '0')}Z`);
}

const emailRow = (s: SessionImage & { email_key: string }): SessionEmailRow => ({
  id: s.id,
  start_time: timeOf(s.start_micros),
  email_key: s.email_key,
  effective_qualification_status: s.effective_qualification_status,
  buying_intent: s.buying_intent,
  booked_status: s.booked_status,
});

const sameRow = (a: SessionEmailRow, b: SessionEmailRow) =>
  (Object.keys(a) as (keyof SessionEmailRow)[]).every((column) => a[column] === b[column]);

const byKey =
  <T>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/**
 * The rows derived from sessions after a write of them (what migration SessionCounts' and
 * SessionEmailSearch's triggers derived): each visible session as it was counts -1 in its UTC hour
 * and facet values, as it is +1; the email search loses the sessions that were searchable and no
 * longer are, and takes those that are, unless their row is unchanged. Sorted (counts by hour and
 * facets, the search by id), so that writers of the same rows take their locks in one order.
 */
export function derivedRowChanges(changes: SessionImageChange[]): DerivedRowChanges {
  const counts = new Map<string, SessionCountDelta>();
  const count = (s: SessionImage | null, sign: number) => {
    if (s === null || !visible(s)) return;
    const delta = { hour: hourOf(s.start_micros), ...Object.fromEntries(FACETS.map((f) => [f, s[f]])) };
    const key = JSON.stringify(delta);
    const entry = counts.get(key) ?? { ...(delta as Omit<SessionCountDelta, 'sessions'>), sessions: 0 };
    entry.sessions += sign;
    counts.set(key, entry);
  };
  const unlisted: string[] = [];
  const listed: SessionEmailRow[] = [];
  for (const { before, after } of changes) {
    count(before, -1);
    count(after, 1);
    const was = searchable(before) ? emailRow(before) : null;
    const is = searchable(after) ? emailRow(after) : null;
    if (was && !is) unlisted.push(was.id);
    if (is && !(was && sameRow(was, is))) listed.push(is);
  }
  return {
    counts: [...counts.entries()]
      .filter(([, delta]) => delta.sessions !== 0)
      .sort(byKey(([key]) => key))
      .map(([, delta]) => delta),
    unlisted: unlisted.sort(),
    listed: listed.sort(byKey((row) => row.id)),
  };
}
