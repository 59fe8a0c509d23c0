import { derivedRowChanges, type SessionImage } from './derived-rows';

/** An instant `YYYY-MM-DDTHH:MM:SS.ffffffZ` in microseconds since the epoch, as SessionImage holds it. */
const micros = (iso: string) => String(BigInt(Date.parse(`${iso.slice(0, 19)}Z`)) * 1000n + BigInt(iso.slice(20, 26)));

const session = (id: string, overrides: Partial<SessionImage> = {}): SessionImage => ({
  id,
  environment: 'production',
  analysis_status: 'analyzed',
  start_micros: micros('2026-11-29T21:40:16.123456Z'),
  email_key: 'ann@example.test',
  effective_qualification_status: 'qualified',
  buying_intent: 'high',
  booked_status: null,
  ...overrides,
});
const facets = { effective_qualification_status: 'qualified', buying_intent: 'high', booked_status: null };
const ninePm = { hour: '2026-11-29T21:00:00', ...facets };
const emailRow = (s: SessionImage, startTime = '2026-11-29T21:40:16.123456Z') => ({
  id: s.id,
  start_time: startTime,
  email_key: s.email_key,
  effective_qualification_status: s.effective_qualification_status,
  buying_intent: s.buying_intent,
  booked_status: s.booked_status,
});

describe('derivedRowChanges', () => {
  it('counts an inserted visible session in its UTC hour and lists its email', () => {
    const a = session('a');
    expect(derivedRowChanges([{ before: null, after: a }])).toEqual({
      counts: [{ ...ninePm, sessions: 1 }],
      unlisted: [],
      listed: [emailRow(a)],
    });
  });

  it('takes a deleted visible session out of its count and the search', () => {
    expect(derivedRowChanges([{ before: session('a'), after: null }])).toEqual({
      counts: [{ ...ninePm, sessions: -1 }],
      unlisted: ['a'],
      listed: [],
    });
  });

  it('reads the hour in UTC, as the session counts do, at a month edge to the microsecond', () => {
    const changes = [
      { before: null, after: session('a', { start_micros: micros('2026-11-30T23:59:59.999999Z') }) },
      { before: null, after: session('b', { start_micros: micros('2026-12-01T00:00:00.000000Z') }) },
      { before: null, after: session('c', { start_micros: micros('2026-11-30T23:00:00.000000Z') }) },
    ];
    expect(derivedRowChanges(changes).counts).toEqual([
      { ...ninePm, hour: '2026-11-30T23:00:00', sessions: 2 },
      { ...ninePm, hour: '2026-12-01T00:00:00', sessions: 1 },
    ]);
  });

  it('gives nothing for a write that changes none of the derived columns', () => {
    expect(derivedRowChanges([{ before: session('a'), after: session('a') }])).toEqual({
      counts: [],
      unlisted: [],
      listed: [],
    });
  });

  it('moves a session whose facet changed between counts and rewrites its search row', () => {
    const after = session('a', { buying_intent: 'low' });
    expect(derivedRowChanges([{ before: session('a'), after }])).toEqual({
      counts: [
        { ...ninePm, buying_intent: 'high', sessions: -1 },
        { ...ninePm, buying_intent: 'low', sessions: 1 },
      ],
      unlisted: [],
      listed: [emailRow(after)],
    });
  });

  it('drops the sums that cancel out across sessions of one write', () => {
    const changes = [
      { before: session('a'), after: session('a', { buying_intent: 'low' }) },
      { before: session('b', { buying_intent: 'low' }), after: session('b') },
    ];
    expect(derivedRowChanges(changes).counts).toEqual([]);
  });

  it('counts and lists only visible sessions: staging or pending ones leave both', () => {
    const hidden = [
      { before: session('a'), after: session('a', { environment: 'staging' }) },
      { before: session('b'), after: session('b', { analysis_status: 'pending' }) },
      { before: null, after: session('c', { analysis_status: 'pending' }) },
    ];
    expect(derivedRowChanges(hidden)).toEqual({
      counts: [{ ...ninePm, sessions: -2 }],
      unlisted: ['a', 'b'],
      listed: [],
    });
  });

  it('counts a visible session without an email but keeps it out of the search', () => {
    const anonymous = session('a', { email_key: null });
    expect(derivedRowChanges([{ before: null, after: anonymous }])).toEqual({
      counts: [{ ...ninePm, sessions: 1 }],
      unlisted: [],
      listed: [],
    });
    expect(derivedRowChanges([{ before: session('a'), after: anonymous }])).toEqual({
      counts: [],
      unlisted: ['a'],
      listed: [],
    });
  });

  it('sorts the counts and the search rows, so writers take their locks in one order', () => {
    const changes = ['c', 'a', 'b'].map((id, i) => ({
      before: null,
      after: session(id, { start_micros: micros(`2026-0${3 - i}-15T00:00:00.000000Z`) }),
    }));
    const { counts, listed } = derivedRowChanges(changes);
    expect(counts.map((c) => c.hour)).toEqual(['2026-01-15T00:00:00', '2026-02-15T00:00:00', '2026-03-15T00:00:00']);
    expect(listed.map((row) => row.id)).toEqual(['a', 'b', 'c']);
    expect(derivedRowChanges(changes.map(({ after }) => ({ before: after, after: null }))).unlisted).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('keeps the start time to the microsecond, before 1970 too', () => {
    const early = session('a', { start_micros: micros('1969-12-31T23:59:59.000001Z') });
    expect(derivedRowChanges([{ before: null, after: early }])).toEqual({
      counts: [{ ...ninePm, hour: '1969-12-31T23:00:00', sessions: 1 }],
      unlisted: [],
      listed: [emailRow(early, '1969-12-31T23:59:59.000001Z')],
    });
  });

  it('refuses a start time that is not microseconds', () => {
    expect(() => derivedRowChanges([{ before: null, after: session('a', { start_micros: '1.5' }) }])).toThrow(
      'not microseconds since the epoch',
    );
  });
});
