import { effectiveQualification, rollUpPerson, type SessionFacts } from './person-rollup';

/** docs/api.md §13.3 and DECISIONS "Person fields left open". */
const CALCULATED_AT = new Date('2026-06-30T12:00:00.000Z');
const at = (iso: string) => new Date(iso);

let nextId = 0;
function session(overrides: Partial<SessionFacts> = {}): SessionFacts {
  nextId += 1;
  return {
    id: `00000000-0000-7000-8000-${String(nextId).padStart(12, '0')}`,
    startTime: at('2026-06-01T10:00:00.000Z'),
    endTime: null,
    name: null,
    phone: null,
    business: null,
    utmSource: null,
    geoCity: null,
    geoRegion: null,
    geoCountry: null,
    qualificationStatus: null,
    qualificationRationale: null,
    qualificationSource: null,
    qualificationAssessedAt: null,
    qualificationRubricVersionId: null,
    buyingIntent: null,
    bookedStatus: null,
    summaryMarkdown: null,
    ...overrides,
  };
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** Runs the check on every order of the sessions: the rollup must never depend on row order. */
function forEveryOrder(sessions: SessionFacts[], check: (ordered: SessionFacts[]) => void): void {
  for (const ordered of permutations(sessions)) check(ordered);
}

const roll = (sessions: SessionFacts[], email = 'ann@acme.com') => rollUpPerson(email, sessions, CALCULATED_AT);

describe('effectiveQualification', () => {
  const T = '2026-06-10T12:00:00.000Z';

  it('is null without any assessment (a session without qualificationStatus is none)', () => {
    expect(effectiveQualification([])).toBeNull();
    expect(
      effectiveQualification([
        session({ qualificationSource: 'manual', qualificationAssessedAt: at(T), qualificationRationale: 'x' }),
      ]),
    ).toBeNull();
  });

  it('returns the fields of the winning assessment', () => {
    const only = session({
      qualificationStatus: 'qualified',
      qualificationRationale: 'budget confirmed',
      qualificationSource: 'manual',
      qualificationAssessedAt: at(T),
      qualificationRubricVersionId: 'rubric-7',
    });
    expect(effectiveQualification([only])).toEqual({
      status: 'qualified',
      rationale: 'budget confirmed',
      source: 'manual',
      assessedAt: at(T),
      rubricVersionId: 'rubric-7',
    });
  });

  it('keeps a manual assessment over an automatic one at the same instant, whatever the start times', () => {
    const manual = session({
      startTime: at('2026-06-01T10:00:00Z'),
      qualificationStatus: 'qualified',
      qualificationSource: 'manual',
      qualificationAssessedAt: at(T),
      qualificationRationale: 'manual',
    });
    const automatic = session({
      startTime: at('2026-06-05T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: 'automatic',
      qualificationAssessedAt: at(T),
      qualificationRationale: 'automatic',
    });
    forEveryOrder([manual, automatic], (sessions) => {
      expect(effectiveQualification(sessions)?.status).toBe('qualified');
      expect(effectiveQualification(sessions)?.rationale).toBe('manual');
    });
  });

  it('keeps a manual assessment over an earlier automatic one from a later session', () => {
    const manual = session({
      startTime: at('2026-06-01T10:00:00Z'),
      qualificationStatus: 'qualified',
      qualificationSource: 'manual',
      qualificationAssessedAt: at('2026-06-20T10:00:00Z'),
    });
    const automatic = session({
      startTime: at('2026-06-15T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: 'automatic',
      qualificationAssessedAt: at('2026-06-15T11:00:00Z'),
    });
    forEveryOrder([manual, automatic], (sessions) =>
      expect(effectiveQualification(sessions)?.status).toBe('qualified'),
    );
  });

  it('lets a later automatic assessment override an earlier manual one', () => {
    const manual = session({
      startTime: at('2026-06-01T10:00:00Z'),
      qualificationStatus: 'qualified',
      qualificationSource: 'manual',
      qualificationAssessedAt: at(T),
    });
    const automatic = session({
      startTime: at('2026-06-01T09:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: 'automatic',
      qualificationAssessedAt: at('2026-06-10T12:00:00.001Z'),
    });
    forEveryOrder([manual, automatic], (sessions) =>
      expect(effectiveQualification(sessions)?.status).toBe('unqualified'),
    );
  });

  it('lets a later manual assessment override an earlier automatic one', () => {
    const automatic = session({
      startTime: at('2026-06-09T10:00:00Z'),
      qualificationStatus: 'qualified',
      qualificationSource: 'automatic',
      qualificationAssessedAt: at('2026-06-09T11:00:00Z'),
    });
    const manual = session({
      startTime: at('2026-06-01T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: 'manual',
      qualificationAssessedAt: at(T),
    });
    forEveryOrder([manual, automatic], (sessions) =>
      expect(effectiveQualification(sessions)?.status).toBe('unqualified'),
    );
  });

  it('orders by assessedAt, not by start time', () => {
    const early = session({
      startTime: at('2026-06-20T10:00:00Z'),
      qualificationStatus: 'qualified',
      qualificationSource: 'automatic',
      qualificationAssessedAt: at('2026-06-20T10:00:00Z'),
    });
    const late = session({
      startTime: at('2026-06-02T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: 'automatic',
      qualificationAssessedAt: at('2026-06-25T10:00:00Z'),
    });
    forEveryOrder([early, late], (sessions) => expect(effectiveQualification(sessions)?.status).toBe('unqualified'));
  });

  it('uses the start time of a session without assessedAt', () => {
    // Manual without assessedAt counts at its start (06-10 12:00), after the automatic at 06-10 09:00.
    const manual = session({
      startTime: at('2026-06-10T12:00:00Z'),
      qualificationStatus: 'qualified',
      qualificationSource: 'manual',
    });
    const automatic = session({
      startTime: at('2026-06-11T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: 'automatic',
      qualificationAssessedAt: at('2026-06-10T09:00:00Z'),
    });
    forEveryOrder([manual, automatic], (sessions) =>
      expect(effectiveQualification(sessions)?.status).toBe('qualified'),
    );

    // Automatic without assessedAt counts at its start (06-12), after the manual assessed 06-11.
    const manual2 = session({
      startTime: at('2026-06-01T10:00:00Z'),
      qualificationStatus: 'qualified',
      qualificationSource: 'manual',
      qualificationAssessedAt: at('2026-06-11T10:00:00Z'),
    });
    const automatic2 = session({
      startTime: at('2026-06-12T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: 'automatic',
    });
    forEveryOrder([manual2, automatic2], (sessions) =>
      expect(effectiveQualification(sessions)?.status).toBe('unqualified'),
    );

    // A manual without assessedAt starting exactly when an automatic was assessed: equal instant → manual.
    const manual3 = session({ startTime: at(T), qualificationStatus: 'qualified', qualificationSource: 'manual' });
    const automatic3 = session({
      startTime: at('2026-06-15T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: 'automatic',
      qualificationAssessedAt: at(T),
    });
    forEveryOrder([manual3, automatic3], (sessions) =>
      expect(effectiveQualification(sessions)?.status).toBe('qualified'),
    );
  });

  it('counts a missing source as automatic', () => {
    const manual = session({
      startTime: at('2026-06-01T10:00:00Z'),
      qualificationStatus: 'qualified',
      qualificationSource: 'manual',
      qualificationAssessedAt: at(T),
    });
    const unsourced = session({
      startTime: at('2026-06-05T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: null,
      qualificationAssessedAt: at(T),
    });
    forEveryOrder([manual, unsourced], (sessions) =>
      expect(effectiveQualification(sessions)?.status).toBe('qualified'),
    );
  });

  it('breaks a tie between automatic assessments at the same instant by start time', () => {
    const older = session({
      startTime: at('2026-06-01T10:00:00Z'),
      qualificationStatus: 'qualified',
      qualificationSource: 'automatic',
      qualificationAssessedAt: at(T),
    });
    const newer = session({
      startTime: at('2026-06-02T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: null,
      qualificationAssessedAt: at(T),
    });
    forEveryOrder([older, newer], (sessions) => expect(effectiveQualification(sessions)?.status).toBe('unqualified'));
  });

  it('ignores later sessions that are not assessments', () => {
    const assessed = session({
      startTime: at('2026-06-01T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: 'automatic',
    });
    const later = session({
      startTime: at('2026-06-20T10:00:00Z'),
      qualificationSource: 'manual',
      qualificationAssessedAt: at('2026-06-20T10:00:00Z'),
    });
    forEveryOrder([assessed, later], (sessions) =>
      expect(effectiveQualification(sessions)?.status).toBe('unqualified'),
    );
  });
});

describe('rollUpPerson', () => {
  it('takes the latest non-empty name, phone and business independently', () => {
    const s1 = session({
      startTime: at('2026-06-01T10:00:00Z'),
      name: 'Ann Old',
      phone: '+1 555 0100',
      business: 'Acme Old',
    });
    const s2 = session({ startTime: at('2026-06-02T10:00:00Z'), name: 'Ann Lee', phone: '', business: null });
    const s3 = session({ startTime: at('2026-06-03T10:00:00Z'), name: '   ', phone: null, business: 'Acme Corp' });
    const s4 = session({ startTime: at('2026-06-04T10:00:00Z') });
    forEveryOrder([s1, s2, s3, s4], (sessions) => {
      const person = roll(sessions);
      expect(person.name).toBe('Ann Lee');
      expect(person.phone).toBe('+1 555 0100');
      expect(person.business).toBe('Acme Corp');
    });
  });

  it('has null name, phone and business when no session has one', () => {
    const person = roll([session({ name: '', phone: ' ' }), session({ startTime: at('2026-06-05T10:00:00Z') })]);
    expect(person.name).toBeNull();
    expect(person.phone).toBeNull();
    expect(person.business).toBeNull();
  });

  it('formats lastLocation from the latest session with geo data, skipping sessions without', () => {
    const berlin = session({
      startTime: at('2026-06-01T10:00:00Z'),
      geoCity: 'Berlin',
      geoRegion: 'Berlin',
      geoCountry: 'Germany',
    });
    const paris = session({
      startTime: at('2026-06-02T10:00:00Z'),
      geoCity: 'Paris',
      geoRegion: 'Île-de-France',
      geoCountry: 'France',
    });
    const nowhere = session({ startTime: at('2026-06-03T10:00:00Z'), geoCity: '', geoRegion: null, geoCountry: '  ' });
    forEveryOrder([berlin, paris, nowhere], (sessions) =>
      expect(roll(sessions).lastLocation).toBe('Paris, Île-de-France, France'),
    );
  });

  it('joins only the non-empty parts of the location', () => {
    expect(roll([session({ geoCity: 'Lyon', geoRegion: '', geoCountry: 'France' })]).lastLocation).toBe('Lyon, France');
    expect(roll([session({ geoCountry: 'Japan' })]).lastLocation).toBe('Japan');
    expect(roll([session({ geoRegion: 'Bavaria' })]).lastLocation).toBe('Bavaria');
    expect(roll([session()]).lastLocation).toBeNull();
  });

  it('uses a partial location of a later session over a full one of an earlier session', () => {
    const full = session({
      startTime: at('2026-06-01T10:00:00Z'),
      geoCity: 'Berlin',
      geoRegion: 'Berlin',
      geoCountry: 'Germany',
    });
    const partial = session({ startTime: at('2026-06-02T10:00:00Z'), geoCountry: 'Austria' });
    forEveryOrder([full, partial], (sessions) => expect(roll(sessions).lastLocation).toBe('Austria'));
  });

  it('takes firstSeenAt from the earliest start and lastSeenAt from the latest end (start without end)', () => {
    const a = session({ startTime: at('2026-06-01T10:00:00Z'), endTime: at('2026-06-01T10:30:00Z') });
    const long = session({ startTime: at('2026-06-02T10:00:00Z'), endTime: at('2026-06-02T15:00:00Z') });
    const lastStart = session({ startTime: at('2026-06-02T11:00:00Z'), endTime: at('2026-06-02T11:10:00Z') });
    forEveryOrder([a, long, lastStart], (sessions) => {
      const person = roll(sessions);
      expect(person.firstSeenAt).toEqual(at('2026-06-01T10:00:00Z'));
      // The session that started last ended before the long one did.
      expect(person.lastSeenAt).toEqual(at('2026-06-02T15:00:00Z'));
    });
    const open = session({ startTime: at('2026-06-03T09:00:00Z'), endTime: null });
    forEveryOrder([a, long, open], (sessions) => expect(roll(sessions).lastSeenAt).toEqual(at('2026-06-03T09:00:00Z')));
  });

  it('sums whole seconds of each session for totalTimeSpentSeconds, 0 without an end', () => {
    const s1 = session({ startTime: at('2026-06-01T10:00:00.000Z'), endTime: at('2026-06-01T10:01:30.900Z') }); // 90.9 s → 90
    const s2 = session({ startTime: at('2026-06-02T10:00:00.000Z'), endTime: at('2026-06-02T10:00:59.500Z') }); // 59.5 s → 59
    const s3 = session({ startTime: at('2026-06-03T10:00:00.000Z'), endTime: null }); // 0
    const s4 = session({ startTime: at('2026-06-04T10:00:00.000Z'), endTime: at('2026-06-04T11:00:00.000Z') }); // 3600
    // 90 + 59 + 0 + 3600 = 3749 (summing first and flooring once would give 3750).
    forEveryOrder([s1, s2, s3, s4], (sessions) => expect(roll(sessions).totalTimeSpentSeconds).toBe(3749));
  });

  it('takes firstSource and lastSource from the earliest and latest sessions, in any input order', () => {
    const first = session({ startTime: at('2026-06-01T10:00:00Z'), utmSource: 'google' });
    const middle = session({ startTime: at('2026-06-02T10:00:00Z'), utmSource: 'newsletter' });
    const last = session({ startTime: at('2026-06-03T10:00:00Z'), utmSource: 'linkedin' });
    forEveryOrder([first, middle, last], (sessions) => {
      const person = roll(sessions);
      expect(person.firstSource).toBe('google');
      expect(person.lastSource).toBe('linkedin');
    });
  });

  it("reports the latest session's utmSource even when it has none", () => {
    const first = session({ startTime: at('2026-06-01T10:00:00Z'), utmSource: 'google' });
    const last = session({ startTime: at('2026-06-03T10:00:00Z'), utmSource: null });
    forEveryOrder([first, last], (sessions) => {
      expect(roll(sessions).firstSource).toBe('google');
      expect(roll(sessions).lastSource).toBeNull();
    });
  });

  it('does not depend on input order when sessions start at the same instant', () => {
    const a = session({
      startTime: at('2026-06-01T10:00:00Z'),
      utmSource: 'a',
      summaryMarkdown: 'A',
      buyingIntent: 'low',
    });
    const b = session({
      startTime: at('2026-06-01T10:00:00Z'),
      utmSource: 'b',
      summaryMarkdown: 'B',
      buyingIntent: 'high',
    });
    const c = session({
      startTime: at('2026-06-01T10:00:00Z'),
      utmSource: 'c',
      summaryMarkdown: 'C',
      buyingIntent: 'medium',
    });
    const reference = roll([a, b, c]);
    forEveryOrder([a, b, c], (sessions) => expect(roll(sessions)).toEqual(reference));
  });

  it('takes the latest non-empty summary (latest = startTime, then id)', () => {
    const s1 = session({ startTime: at('2026-06-01T10:00:00Z'), summaryMarkdown: '# First' });
    const s2 = session({ startTime: at('2026-06-02T10:00:00Z'), summaryMarkdown: '# Second' });
    const s3 = session({ startTime: at('2026-06-03T10:00:00Z'), summaryMarkdown: '' });
    forEveryOrder([s1, s2, s3], (sessions) => expect(roll(sessions).summaryMarkdown).toBe('# Second'));

    const lowId = session({
      id: '00000000-0000-7000-8000-0000000000a1',
      startTime: at('2026-06-05T10:00:00Z'),
      summaryMarkdown: 'low id',
    });
    const highId = session({
      id: '00000000-0000-7000-8000-0000000000b2',
      startTime: at('2026-06-05T10:00:00Z'),
      summaryMarkdown: 'high id',
    });
    forEveryOrder([s1, lowId, highId], (sessions) => expect(roll(sessions).summaryMarkdown).toBe('high id'));
  });

  it('counts sessions and booked sessions and takes buyingIntent from the latest session', () => {
    const s1 = session({ startTime: at('2026-06-01T10:00:00Z'), bookedStatus: 'booked', buyingIntent: 'high' });
    const s2 = session({ startTime: at('2026-06-02T10:00:00Z'), bookedStatus: 'not_booked', buyingIntent: 'medium' });
    const s3 = session({ startTime: at('2026-06-03T10:00:00Z'), bookedStatus: 'booked', buyingIntent: 'low' });
    const s4 = session({ startTime: at('2026-05-03T10:00:00Z'), bookedStatus: null, buyingIntent: 'high' });
    forEveryOrder([s1, s2, s3, s4], (sessions) => {
      const person = roll(sessions);
      expect(person.totalSessions).toBe(4);
      expect(person.bookedSessions).toBe(2);
      expect(person.buyingIntent).toBe('low');
    });
  });

  it('has a null buyingIntent when the latest session has none', () => {
    const s1 = session({ startTime: at('2026-06-01T10:00:00Z'), buyingIntent: 'high' });
    const s2 = session({ startTime: at('2026-06-02T10:00:00Z'), buyingIntent: null });
    forEveryOrder([s1, s2], (sessions) => expect(roll(sessions).buyingIntent).toBeNull());
  });

  it('computes the intent score at the calculation time', () => {
    // low 0 days before CALCULATED_AT (w 1), high 28 days before (w 0.25): mean 1.75 / 1.25 = 1.4;
    // a session without intent 1 day before makes n30 = 3 → bonus 0.2 → 1.6 (medium).
    const sessions = [
      session({ startTime: at('2026-06-30T12:00:00Z'), buyingIntent: 'low' }),
      session({ startTime: at('2026-06-02T12:00:00Z'), buyingIntent: 'high' }),
      session({ startTime: at('2026-06-29T12:00:00Z'), buyingIntent: null }),
    ];
    const person = roll(sessions);
    expect(person.intentScore).toBeCloseTo(1.6, 12);
    expect(person.overallIntent).toBe('medium');
    expect(person.intentCalculatedAt).toEqual(CALCULATED_AT);
  });

  it('uses the effective qualification', () => {
    const manual = session({
      startTime: at('2026-06-01T10:00:00Z'),
      qualificationStatus: 'qualified',
      qualificationSource: 'manual',
      qualificationAssessedAt: at('2026-06-10T10:00:00Z'),
    });
    const automatic = session({
      startTime: at('2026-06-05T10:00:00Z'),
      qualificationStatus: 'unqualified',
      qualificationSource: 'automatic',
    });
    forEveryOrder([manual, automatic], (sessions) => expect(roll(sessions).qualification?.status).toBe('qualified'));
    expect(roll([session()]).qualification).toBeNull();
  });

  it('derives the account domain from the email key', () => {
    expect(roll([session()], 'ann@eu.acme.co.uk').accountDomain).toBe('acme.co.uk');
    expect(roll([session()], 'ann@acme.com').accountDomain).toBe('acme.com');
    expect(roll([session()], 'ann@gmail.com').accountDomain).toBeNull();
    expect(roll([session()], 'ann@acme.com').emailKey).toBe('ann@acme.com');
  });
});
