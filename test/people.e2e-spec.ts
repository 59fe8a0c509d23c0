import request from 'supertest';
import type { BuyingIntent, IngestedSession, OverallIntent, PeoplePage, Person } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * People through HTTP: docs/api.md §2.4, §4.2, §11.3 (filters), §13.3 (person rules), §13.4 (intent);
 * DECISIONS "Sessions, people, accounts (issue 3)".
 */

const PEOPLE = '/api/v1/people';
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NOT_FOUND = { detail: "Person not found for the key's organization." };
const FORBIDDEN = { detail: 'API key does not include the required scope.' };
const UNAUTHORIZED = { detail: 'API key required or invalid.' };
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';

const DAY = 86_400_000;
/** The run's start, on a whole minute: session times are placed relative to it. */
const NOW = Math.floor(Date.now() / 60_000) * 60_000;
/** The instant `days` days before NOW, plus `minutes`. */
const ago = (days: number, minutes = 0) => new Date(NOW - days * DAY + minutes * 60_000).toISOString();
const plusMinutes = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

const BASE_TRACKING = sessionBody().tracking as Record<string, unknown>;
const NO_QUALIFICATION = {
  qualificationStatus: null,
  qualificationReason: null,
  qualificationRationale: null,
  qualificationSource: null,
  qualificationAssessedAt: null,
  qualificationRubricVersionId: null,
  qualificationStage: null,
};

/**
 * A full ingestion body for a session starting at `start` and lasting `minutes` (null: no end).
 * `qualificationAssessedAt` is left out unless given (so the session's startTime orders it);
 * `tracking` fields override the base tracking.
 */
function visit(
  start: string,
  minutes: number | null,
  over: Record<string, unknown> = {},
  tracking: Record<string, unknown> = {},
) {
  return sessionBody({
    startTime: start,
    endTime: minutes === null ? null : plusMinutes(start, minutes),
    qualificationAssessedAt: null,
    ...over,
    tracking: { ...BASE_TRACKING, ...tracking },
  });
}

const INTENT_VALUE: Record<BuyingIntent, number> = { none: 0, low: 1, medium: 2, high: 3 };

/** docs/api.md §13.4 and DECISIONS: the intent score of sessions as of `calculatedAt`. */
function expectedIntentScore(
  sessions: { startTime: string; buyingIntent: BuyingIntent | null }[],
  calculatedAt: string,
): number {
  const reference = Date.parse(calculatedAt);
  let weights = 0;
  let weighted = 0;
  let recent = 0;
  for (const session of sessions) {
    const ageDays = Math.max(0, (reference - Date.parse(session.startTime)) / DAY);
    if (ageDays <= 30) recent += 1;
    if (session.buyingIntent === null) continue;
    const weight = 0.5 ** (ageDays / 14);
    weights += weight;
    weighted += weight * INTENT_VALUE[session.buyingIntent];
  }
  const mean = weights === 0 ? 0 : weighted / weights;
  const bonus = Math.max(0, Math.min(0.5, 0.1 * (recent - 1)));
  return Math.min(3, Math.max(0, mean + bonus));
}

describe('people', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const tenant = () => t.createTenant();
  const put = async (who: Tenant, id: string, body: Record<string, unknown>): Promise<IngestedSession> =>
    (await ingest(t.server, who.key, id, body).expect(200)).body as IngestedSession;
  const get = (who: Tenant, id: string) =>
    request(t.server).get(`${PEOPLE}/${id}`).set('Authorization', `Bearer ${who.key}`);
  const getOk = async (who: Tenant, id: string): Promise<Person> => (await get(who, id).expect(200)).body as Person;
  const list = (who: Tenant, query: Record<string, string | number> = {}) =>
    request(t.server).get(PEOPLE).query(query).set('Authorization', `Bearer ${who.key}`);
  const listOk = async (who: Tenant, query: Record<string, string | number> = {}): Promise<PeoplePage> => {
    const res = await list(who, query).expect(200);
    expect(Object.keys(res.body as object).sort()).toEqual(['pagination', 'people']);
    return res.body as PeoplePage;
  };
  const emailsOf = (page: PeoplePage) => page.people.map((p) => p.email);
  /** Ingests one session per [email, start] and returns the person of each email. */
  const seed = async (who: Tenant, rows: [string, Record<string, unknown>][]) => {
    const ids = new Map<string, string>();
    for (const [email, body] of rows)
      ids.set(email.toLowerCase(), (await put(who, newSessionId(), { ...body, email })).personId!);
    return ids;
  };

  describe('identity', () => {
    it('keeps one person per lower-cased email, shown lower-cased', async () => {
      const who = await tenant();
      const a = await put(who, newSessionId(), visit(ago(3), 30, { email: 'Ada@Acme.com' }));
      const b = await put(who, newSessionId(), visit(ago(2), 30, { email: 'ada@acme.com' }));
      const c = await put(who, newSessionId(), visit(ago(1), 30, { email: 'ADA@ACME.COM' }));

      expect(a.personId).toMatch(UUID);
      expect([b.personId, c.personId]).toEqual([a.personId, a.personId]);
      const page = await listOk(who);
      expect(page.pagination).toEqual({ total: 1, limit: 50, offset: 0, nextCursor: null });
      expect(page.people).toHaveLength(1);
      expect(page.people[0]).toMatchObject({ id: a.personId, email: 'ada@acme.com', totalSessions: 3 });
      expect(await getOk(who, a.personId!)).toEqual(page.people[0]);
    });

    it('keeps the same email apart in two organizations', async () => {
      const [one, two] = [await tenant(), await tenant()];
      const inOne = await put(one, newSessionId(), visit(ago(1), 10, { email: 'ada@acme.com' }));
      const inTwo = await put(two, newSessionId(), visit(ago(1), 10, { email: 'ada@acme.com' }));

      expect(inTwo.personId).not.toBe(inOne.personId);
      expect((await listOk(one)).people.map((p) => p.id)).toEqual([inOne.personId]);
      expect((await listOk(two)).people.map((p) => p.id)).toEqual([inTwo.personId]);
      await get(one, inTwo.personId!).expect(404, NOT_FOUND);
      await get(two, inOne.personId!).expect(404, NOT_FOUND);
    });

    it('makes no person for staging, pending or email-less sessions', async () => {
      const who = await tenant();
      const staging = await put(
        who,
        newSessionId(),
        visit(ago(1), 10, { email: 'stage@acme.com', environment: 'staging' }),
      );
      const pending = await put(
        who,
        newSessionId(),
        visit(ago(1), 10, { email: 'pend@acme.com', analysisStatus: 'pending' }),
      );
      const anonymous = await put(who, newSessionId(), visit(ago(1), 10, { email: null }));

      expect(staging).toEqual({ id: expect.stringMatching(UUID), personId: null, analysisStatus: 'analyzed' });
      expect(pending).toEqual({ id: expect.stringMatching(UUID), personId: null, analysisStatus: 'pending' });
      expect(anonymous).toEqual({ id: expect.stringMatching(UUID), personId: null, analysisStatus: 'analyzed' });
      expect(await listOk(who)).toEqual({
        people: [],
        pagination: { total: 0, limit: 50, offset: 0, nextCursor: null },
      });
    });
  });

  describe('profile fields', () => {
    it('derives every field of docs/api.md §2.4 from the sessions, whatever the ingestion order', async () => {
      const who = await tenant();
      const early = visit(
        ago(10),
        30,
        {
          email: 'Ada@Acme.com',
          name: 'Ada',
          phone: '+1 555 0100',
          business: 'Acme',
          buyingIntent: 'high',
          qualificationStatus: 'qualified',
          qualificationSource: 'automatic',
          qualificationAssessedAt: ago(10, 31),
          qualificationRationale: 'R-early',
          qualificationRubricVersionId: 'rubric-v1',
          summaryMarkdown: 'early summary',
        },
        { utmSource: 'google', geoCity: 'San Francisco', geoRegion: 'CA', geoCountry: 'US' },
      );
      const middle = visit(
        ago(5),
        45,
        {
          email: 'ada@acme.com',
          name: 'Ada Lovelace',
          phone: null,
          business: 'Acme Corp',
          buyingIntent: 'medium',
          qualificationStatus: 'unqualified',
          qualificationSource: 'manual',
          qualificationAssessedAt: ago(5, 50),
          qualificationRationale: 'R-middle',
          qualificationRubricVersionId: 'rubric-v2',
          summaryMarkdown: 'middle summary',
        },
        { utmSource: 'newsletter', geoCity: 'Berlin', geoRegion: 'BE', geoCountry: 'DE' },
      );
      const latest = visit(
        ago(2),
        15,
        {
          email: 'ADA@acme.com',
          name: '',
          phone: null,
          business: null,
          buyingIntent: 'low',
          summaryMarkdown: '',
          ...NO_QUALIFICATION,
        },
        { utmSource: 'partner', geoCity: null, geoRegion: null, geoCountry: null },
      );

      // Latest first, earliest next, the middle one last: order of arrival must not matter.
      const first = await put(who, newSessionId(), latest);
      await put(who, newSessionId(), early);
      await put(who, newSessionId(), middle);
      const person = await getOk(who, first.personId!);

      expect(person).toEqual({
        id: first.personId,
        email: 'ada@acme.com',
        name: 'Ada Lovelace', // the latest session's name is empty
        phone: '+1 555 0100', // only the earliest session has one
        business: 'Acme Corp',
        totalSessions: 3,
        firstSeenAt: ago(10),
        lastSeenAt: ago(2, 15),
        totalTimeSpentSeconds: (30 + 45 + 15) * 60,
        firstSource: 'google',
        lastSource: 'partner', // by startTime, though 'newsletter' arrived last
        lastLocation: 'Berlin, BE, DE', // the latest session has no geo data
        qualificationStatus: 'unqualified', // the manual assessment is the latest one
        buyingIntent: 'low',
        accountDomain: 'acme.com',
        summaryMarkdown: 'middle summary',
        qualificationRationale: 'R-middle',
        qualificationSource: 'manual',
        qualificationAssessedAt: ago(5, 50),
        qualificationRubricVersionId: 'rubric-v2',
        overallIntent: 'high', // mean ≈ 1.87 plus 0.2 for three sessions in 30 days
        intentScore: expect.any(Number),
        intentCalculatedAt: expect.stringMatching(ISO_MS_Z),
        updatedAt: expect.stringMatching(ISO_MS_Z),
      });
      const score = expectedIntentScore(
        [early, middle, latest] as { startTime: string; buyingIntent: BuyingIntent }[],
        person.intentCalculatedAt,
      );
      expect(person.intentScore).toBeCloseTo(score, 6);
      expect(Date.parse(person.intentCalculatedAt)).toBeGreaterThanOrEqual(NOW);
      expect(Date.parse(person.intentCalculatedAt)).toBeLessThanOrEqual(Date.now() + 1000);
      expect((await listOk(who)).people).toEqual([person]);
    });

    it('takes lastSeenAt from the latest end, or the start of a session without end', async () => {
      const who = await tenant();
      // A long session that ends after a later, still open one started.
      const long = visit(ago(1, -120), 180, { email: 'long@acme.com' });
      const open = visit(ago(1), null, { email: 'long@acme.com' });
      const { personId } = await put(who, newSessionId(), long);
      await put(who, newSessionId(), open);
      expect(await getOk(who, personId!)).toMatchObject({
        firstSeenAt: ago(1, -120),
        lastSeenAt: ago(1, 60),
        totalTimeSpentSeconds: 180 * 60,
      });

      const onlyOpen = await put(who, newSessionId(), visit(ago(3), null, { email: 'open@acme.com' }));
      expect(await getOk(who, onlyOpen.personId!)).toMatchObject({
        firstSeenAt: ago(3),
        lastSeenAt: ago(3),
        totalTimeSpentSeconds: 0,
      });

      const later = await put(who, newSessionId(), visit(ago(0, -60), null, { email: 'open@acme.com' }));
      expect(later.personId).toBe(onlyOpen.personId);
      expect(await getOk(who, onlyOpen.personId!)).toMatchObject({
        firstSeenAt: ago(3),
        lastSeenAt: ago(0, -60),
        totalSessions: 2,
      });
    });

    it('joins only the non-empty geo parts of the latest session that has any', async () => {
      const who = await tenant();
      const cases: { email: string; geo: [string | null, string | null, string | null]; expected: string | null }[] = [
        { email: 'full@acme.com', geo: ['Paris', 'IDF', 'FR'], expected: 'Paris, IDF, FR' },
        { email: 'noregion@acme.com', geo: ['Paris', null, 'FR'], expected: 'Paris, FR' },
        { email: 'country@acme.com', geo: [null, null, 'JP'], expected: 'JP' },
        { email: 'nowhere@acme.com', geo: [null, null, null], expected: null },
      ];
      for (const { email, geo, expected } of cases) {
        const [geoCity, geoRegion, geoCountry] = geo;
        const { personId } = await put(
          who,
          newSessionId(),
          visit(ago(2), 10, { email }, { geoCity, geoRegion, geoCountry }),
        );
        expect((await getOk(who, personId!)).lastLocation).toBe(expected);
      }
    });

    it.each([
      ['bob@mail.acme.co.uk', 'acme.co.uk'],
      ['ann@eu.acme.com', 'acme.com'],
      ['Max@ACME.com', 'acme.com'],
      ['joe@gmail.com', null],
    ])('gives %s the account domain %s', async (email, domain) => {
      const who = await tenant();
      const { personId } = await put(who, newSessionId(), visit(ago(1), 10, { email }));
      expect(await getOk(who, personId!)).toMatchObject({ email: email.toLowerCase(), accountDomain: domain });
    });
  });

  describe('qualification precedence', () => {
    const assessment = (start: string, status: string, source: string, assessedAt: string | null, rationale: string) =>
      visit(start, 20, {
        email: 'q@acme.com',
        qualificationStatus: status,
        qualificationSource: source,
        qualificationAssessedAt: assessedAt,
        qualificationRationale: rationale,
        qualificationRubricVersionId: `rubric-${rationale}`,
      });

    it.each([
      {
        rule: 'a later automatic assessment overrides an earlier manual one',
        sessions: [
          assessment(ago(5), 'unqualified', 'manual', ago(5, 30), 'manual'),
          assessment(ago(3), 'qualified', 'automatic', ago(3, 30), 'auto'),
        ],
        wins: {
          qualificationStatus: 'qualified',
          qualificationSource: 'automatic',
          qualificationRationale: 'auto',
          qualificationAssessedAt: ago(3, 30),
        },
      },
      {
        rule: 'an automatic assessment never overrides a later manual one, even of an earlier session',
        sessions: [
          assessment(ago(2), 'qualified', 'automatic', ago(2, 30), 'auto'),
          assessment(ago(4), 'unqualified', 'manual', ago(1), 'manual'),
        ],
        wins: {
          qualificationStatus: 'unqualified',
          qualificationSource: 'manual',
          qualificationRationale: 'manual',
          qualificationAssessedAt: ago(1),
        },
      },
      {
        rule: 'an automatic assessment at the same instant as a manual one does not override it',
        sessions: [
          assessment(ago(4), 'unqualified', 'manual', ago(1), 'manual'),
          assessment(ago(2), 'qualified', 'automatic', ago(1), 'auto'),
        ],
        wins: {
          qualificationStatus: 'unqualified',
          qualificationSource: 'manual',
          qualificationRationale: 'manual',
          qualificationAssessedAt: ago(1),
        },
      },
      {
        rule: 'assessments order by qualificationAssessedAt, not by session start',
        sessions: [
          assessment(ago(4), 'qualified', 'automatic', ago(1), 'older-session'),
          assessment(ago(2), 'unqualified', 'automatic', ago(2, 30), 'newer-session'),
        ],
        wins: {
          qualificationStatus: 'qualified',
          qualificationSource: 'automatic',
          qualificationRationale: 'older-session',
          qualificationAssessedAt: ago(1),
        },
      },
      {
        rule: "without qualificationAssessedAt, the session's startTime orders",
        sessions: [
          assessment(ago(2), 'unqualified', 'automatic', null, 'newer-session'),
          assessment(ago(4), 'qualified', 'automatic', null, 'older-session'),
        ],
        wins: {
          qualificationStatus: 'unqualified',
          qualificationSource: 'automatic',
          qualificationRationale: 'newer-session',
          qualificationAssessedAt: null,
        },
      },
      {
        rule: 'a session without qualification status is no assessment',
        sessions: [
          assessment(ago(4), 'qualified', 'manual', ago(4, 30), 'manual'),
          visit(ago(1), 20, { email: 'q@acme.com', ...NO_QUALIFICATION }),
        ],
        wins: {
          qualificationStatus: 'qualified',
          qualificationSource: 'manual',
          qualificationRationale: 'manual',
          qualificationAssessedAt: ago(4, 30),
        },
      },
    ])('$rule', async ({ sessions, wins }) => {
      const who = await tenant();
      let personId: string | null = null;
      for (const body of sessions) personId = (await put(who, newSessionId(), body)).personId;
      const person = await getOk(who, personId!);
      expect(person).toMatchObject({ ...wins, qualificationRubricVersionId: `rubric-${wins.qualificationRationale}` });
      // The effective qualification is what the list filter sees.
      expect((await listOk(who, { qualification_status: wins.qualificationStatus })).people.map((p) => p.id)).toEqual([
        personId,
      ]);
    });
  });

  describe('intent', () => {
    type Visit = [BuyingIntent | null, number]; // intent, days ago
    const cases: { label: string; visits: Visit[]; level: OverallIntent }[] = [
      { label: 'one session without intent', visits: [[null, 1]], level: 'low' },
      { label: 'one none', visits: [['none', 1]], level: 'low' },
      {
        label: 'seven none (bonus capped at 0.5)',
        visits: [1, 2, 3, 4, 5, 6, 7].map((d): Visit => ['none', d]),
        level: 'low',
      },
      { label: 'one low (exactly 1)', visits: [['low', 1]], level: 'medium' },
      {
        label: 'recent high, older none',
        visits: [
          ['high', 1],
          ['none', 2],
        ],
        level: 'medium',
      },
      { label: 'one medium (exactly 2)', visits: [['medium', 1]], level: 'high' },
      {
        label: 'seven high (clamped to 3)',
        visits: [1, 2, 3, 4, 5, 6, 7].map((d): Visit => ['high', d]),
        level: 'high',
      },
      {
        label: 'old high, recent none',
        visits: [
          ['high', 40],
          ['none', 1],
        ],
        level: 'low',
      },
      {
        label: 'recent high, old none',
        visits: [
          ['high', 1],
          ['none', 40],
        ],
        level: 'high',
      },
    ];

    it('scores every person by the formula of docs/api.md §13.4 and maps the thresholds', async () => {
      const who = await tenant();
      for (const [index, { label, visits, level }] of cases.entries()) {
        const email = `intent${index}@acme.com`;
        const bodies = visits.map(([buyingIntent, days], i) => visit(ago(days, i), 10, { email, buyingIntent }));
        let personId: string | null = null;
        for (const body of bodies) personId = (await put(who, newSessionId(), body)).personId;
        const person = await getOk(who, personId!);
        const score = expectedIntentScore(
          bodies as { startTime: string; buyingIntent: BuyingIntent | null }[],
          person.intentCalculatedAt,
        );
        expect({ label, score: person.intentScore, level: person.overallIntent }).toEqual({
          label,
          score: expect.closeTo(score, 6),
          level,
        });
      }
    });

    it('weights by age, ignores sessions without intent in the mean and counts recent sessions for the bonus', async () => {
      const who = await tenant();
      const bodies = (
        [
          ['high', 1],
          [null, 3],
          ['none', 8],
          ['medium', 20],
          ['low', 45],
        ] as Visit[]
      ).map(([buyingIntent, days]) => visit(ago(days), 10, { email: 'mix@acme.com', buyingIntent }));
      let personId: string | null = null;
      for (const body of bodies) personId = (await put(who, newSessionId(), body)).personId;
      const person = await getOk(who, personId!);

      const score = expectedIntentScore(
        bodies as { startTime: string; buyingIntent: BuyingIntent | null }[],
        person.intentCalculatedAt,
      );
      expect(person.intentScore).toBeCloseTo(score, 6);
      // Mean ≈ 1.76 (the 3-day session has no intent; the 45-day one weighs little) plus 0.3 for
      // four sessions in the last 30 days ≈ 2.06.
      expect(person.intentScore).toBeGreaterThan(2);
      expect(person.overallIntent).toBe('high');
      expect(person.buyingIntent).toBe('high'); // the latest session's
    });
  });

  describe('sessions moving between people', () => {
    it('moves a re-ingested session to the new email; a person left without sessions is gone', async () => {
      const who = await tenant();
      const [s1, s2] = [newSessionId(), newSessionId()];
      const ada = (await put(who, s1, visit(ago(3), 30, { email: 'ada@acme.com' }))).personId!;
      expect((await put(who, s2, visit(ago(2), 20, { email: 'ada@acme.com' }))).personId).toBe(ada);

      const moved = await put(who, s2, visit(ago(2), 20, { email: 'grace@acme.com' }));
      const grace = moved.personId!;
      expect(moved).toEqual({ id: s2, personId: expect.stringMatching(UUID), analysisStatus: 'analyzed' });
      expect(grace).not.toBe(ada);
      expect(await getOk(who, ada)).toMatchObject({
        totalSessions: 1,
        lastSeenAt: ago(3, 30),
        totalTimeSpentSeconds: 1800,
      });
      expect(await getOk(who, grace)).toMatchObject({
        email: 'grace@acme.com',
        totalSessions: 1,
        firstSeenAt: ago(2),
        totalTimeSpentSeconds: 1200,
      });

      expect((await put(who, s1, visit(ago(3), 30, { email: 'Grace@acme.com' }))).personId).toBe(grace);
      await get(who, ada).expect(404, NOT_FOUND);
      expect(await getOk(who, grace)).toMatchObject({
        totalSessions: 2,
        firstSeenAt: ago(3),
        lastSeenAt: ago(2, 20),
        totalTimeSpentSeconds: 3000,
      });
      expect((await listOk(who)).people.map((p) => p.id)).toEqual([grace]);
    });

    it('drops a session re-ingested as staging or pending from its person', async () => {
      const who = await tenant();
      const [s1, s2] = [newSessionId(), newSessionId()];
      const ada = (await put(who, s1, visit(ago(3), 30, { email: 'ada@acme.com' }))).personId!;
      await put(who, s2, visit(ago(2), 20, { email: 'ada@acme.com' }));

      expect(
        (await put(who, s2, visit(ago(2), 20, { email: 'ada@acme.com', environment: 'staging' }))).personId,
      ).toBeNull();
      expect(await getOk(who, ada)).toMatchObject({ totalSessions: 1, lastSeenAt: ago(3, 30) });
      expect(
        (await put(who, s1, visit(ago(3), 30, { email: 'ada@acme.com', analysisStatus: 'pending' }))).personId,
      ).toBeNull();
      await get(who, ada).expect(404, NOT_FOUND);
      expect((await listOk(who)).pagination.total).toBe(0);
    });
  });

  describe('list', () => {
    it('orders by lastSeenAt newest first, then id descending', async () => {
      const who = await tenant();
      const ids = await seed(who, [
        ['old@acme.com', visit(ago(5), 10)],
        // Starts later than long@ but ends earlier: lastSeenAt is the end.
        ['short@acme.com', visit(ago(2, 60), 30)],
        ['long@acme.com', visit(ago(2), 180)],
        ['tie1@acme.com', visit(ago(1), 10)],
        ['tie2@acme.com', visit(ago(1), 10)],
        ['tie3@acme.com', visit(ago(1, 5), 5)],
      ]);
      const ties = ['tie1@acme.com', 'tie2@acme.com', 'tie3@acme.com'].sort((a, b) =>
        ids.get(a)! < ids.get(b)! ? 1 : -1,
      );

      const page = await listOk(who);
      expect(emailsOf(page)).toEqual([...ties, 'long@acme.com', 'short@acme.com', 'old@acme.com']);
      expect(page.pagination).toEqual({ total: 6, limit: 50, offset: 0, nextCursor: null });
    });

    it('pages with limit and offset over the whole ordered list', async () => {
      const who = await tenant();
      await seed(
        who,
        [1, 2, 3, 4, 5].map((d): [string, Record<string, unknown>] => [`p${d}@acme.com`, visit(ago(d), 10)]),
      );

      const cases: [Record<string, number>, string[]][] = [
        [{ limit: 2 }, ['p1@acme.com', 'p2@acme.com']],
        [{ limit: 2, offset: 2 }, ['p3@acme.com', 'p4@acme.com']],
        [{ limit: 2, offset: 4 }, ['p5@acme.com']],
        [{ offset: 5 }, []],
      ];
      for (const [query, emails] of cases) {
        const page = await listOk(who, query);
        expect({ query, emails: emailsOf(page), pagination: page.pagination }).toEqual({
          query,
          emails,
          pagination: {
            total: 5,
            limit: query.limit ?? 50,
            offset: query.offset ?? 0,
            nextCursor: (query.offset ?? 0) + (query.limit ?? 50) < 5 ? expect.any(String) : null,
          },
        });
      }
    });

    it('filters by email substring, case-insensitively, with % and _ matched literally', async () => {
      const who = await tenant();
      await seed(who, [
        ['ada@acme.com', visit(ago(1), 10)],
        ['ADAM@acme.com', visit(ago(2), 10)],
        ['a_b@acme.com', visit(ago(3), 10)],
        ['axb@acme.com', visit(ago(4), 10)],
        ['a%b@acme.com', visit(ago(5), 10)],
        ['bob@other.io', visit(ago(6), 10)],
      ]);

      const cases: [string, string[]][] = [
        ['ADA', ['ada@acme.com', 'adam@acme.com']],
        ['_b@', ['a_b@acme.com']],
        ['%', ['a%b@acme.com']],
        ['a%b', ['a%b@acme.com']],
        ['@ACME.COM', ['ada@acme.com', 'adam@acme.com', 'a_b@acme.com', 'axb@acme.com', 'a%b@acme.com']],
        ['zzz', []],
      ];
      for (const [email, expected] of cases) {
        const page = await listOk(who, { email });
        expect({ email, found: emailsOf(page), total: page.pagination.total }).toEqual({
          email,
          found: expected,
          total: expected.length,
        });
      }
    });

    it('filters by buying intent and effective qualification (comma lists)', async () => {
      const who = await tenant();
      await seed(who, [
        ['high@acme.com', visit(ago(1), 10, { buyingIntent: 'high', qualificationStatus: 'qualified' })],
        ['medium@acme.com', visit(ago(2), 10, { buyingIntent: 'medium', qualificationStatus: 'unqualified' })],
        ['low@acme.com', visit(ago(3), 10, { buyingIntent: 'low', qualificationStatus: 'qualified' })],
        ['none@acme.com', visit(ago(4), 10, { buyingIntent: 'none', ...NO_QUALIFICATION })],
      ]);

      const cases: [Record<string, string>, string[]][] = [
        [{ buying_intent: 'high,medium' }, ['high@acme.com', 'medium@acme.com']],
        [{ buying_intent: 'none' }, ['none@acme.com']],
        [{ buying_intent: 'low,,high' }, ['high@acme.com', 'low@acme.com']],
        [{ qualification_status: 'qualified' }, ['high@acme.com', 'low@acme.com']],
        [{ qualification_status: 'unqualified' }, ['medium@acme.com']],
        [{ qualification_status: 'qualified,unqualified' }, ['high@acme.com', 'medium@acme.com', 'low@acme.com']],
        [{ qualification_status: 'qualified', buying_intent: 'low,medium' }, ['low@acme.com']],
      ];
      for (const [query, expected] of cases) {
        const page = await listOk(who, query);
        expect({ query, found: emailsOf(page), total: page.pagination.total }).toEqual({
          query,
          found: expected,
          total: expected.length,
        });
      }
    });

    it('filters by last-seen bounds, both inclusive', async () => {
      const who = await tenant();
      await seed(who, [
        ['a@acme.com', visit(ago(4), 10)],
        ['b@acme.com', visit(ago(3), 10)],
        ['c@acme.com', visit(ago(2), 10)],
        ['d@acme.com', visit(ago(1), 10)],
      ]);

      const cases: [Record<string, string>, string[]][] = [
        [{ last_seen_from: ago(3, 10), last_seen_to: ago(2, 10) }, ['c@acme.com', 'b@acme.com']],
        [{ last_seen_from: ago(3, 11) }, ['d@acme.com', 'c@acme.com']],
        [{ last_seen_to: ago(3, 9) }, ['a@acme.com']],
        // The same instant written with an offset, and without one (UTC).
        [{ last_seen_from: offsetForm(ago(2, 10)), last_seen_to: ago(2, 10).replace(/\.000Z$/, '') }, ['c@acme.com']],
      ];
      for (const [query, expected] of cases) {
        const page = await listOk(who, query);
        expect({ query, found: emailsOf(page), total: page.pagination.total }).toEqual({
          query,
          found: expected,
          total: expected.length,
        });
      }
    });

    it('lists only the organization of the key', async () => {
      const [one, two] = [await tenant(), await tenant()];
      await seed(one, [['mine@acme.com', visit(ago(1), 10)]]);
      await seed(two, [
        ['theirs@acme.com', visit(ago(1), 10)],
        ['also-theirs@acme.com', visit(ago(2), 10)],
      ]);

      expect(emailsOf(await listOk(one))).toEqual(['mine@acme.com']);
      expect((await listOk(one, { email: 'theirs' })).pagination.total).toBe(0);
      expect(emailsOf(await listOk(two))).toEqual(['theirs@acme.com', 'also-theirs@acme.com']);
    });
  });

  describe('validation and errors', () => {
    const enumIssue = (name: string, input: string, expected: string) => ({
      type: 'enum',
      loc: ['query', name],
      msg: `Input should be ${expected}`,
      input,
      ctx: { expected },
    });

    it.each([
      ['buying_intent', 'high,urgent', "'high', 'medium', 'low' or 'none'"],
      ['buying_intent', 'HIGH', "'high', 'medium', 'low' or 'none'"],
      ['qualification_status', 'qualified,maybe', "'qualified' or 'unqualified'"],
    ])('answers 422 for %s=%s', async (name, value, expected) => {
      const who = await tenant();
      await list(who, { [name]: value }).expect(422, { detail: [enumIssue(name, value, expected)] });
    });

    it.each(['last_seen_from', 'last_seen_to'])('answers 422 datetime_from_date_parsing for a bad %s', async (name) => {
      const who = await tenant();
      await list(who, { [name]: 'not-a-date-at-all' }).expect(422, {
        detail: [
          {
            type: 'datetime_from_date_parsing',
            loc: ['query', name],
            msg: 'Input should be a valid datetime or date, invalid character in year',
            input: 'not-a-date-at-all',
            ctx: { error: 'invalid character in year' },
          },
        ],
      });
    });

    it.each([
      [
        { limit: '0' },
        {
          type: 'greater_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
      ],
      [
        { limit: '201' },
        {
          type: 'less_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be less than or equal to 200',
          input: '201',
          ctx: { le: 200 },
        },
      ],
      [
        { offset: '-1' },
        {
          type: 'greater_than_equal',
          loc: ['query', 'offset'],
          msg: 'Input should be greater than or equal to 0',
          input: '-1',
          ctx: { ge: 0 },
        },
      ],
    ])('answers 422 for pagination %o', async (query, issue) => {
      const who = await tenant();
      await list(who, query).expect(422, { detail: [issue] });
    });

    it('answers 422 for a person id that is not a UUID, 404 for an unknown one', async () => {
      const who = await tenant();
      const res = await get(who, 'not-a-uuid').expect(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'uuid_parsing',
            loc: ['path', 'person_id'],
            msg: expect.stringMatching(/^Input should be a valid UUID, /) as unknown,
            input: 'not-a-uuid',
            ctx: { error: expect.any(String) as unknown },
          },
        ],
      });
      await get(who, UNKNOWN_ID).expect(404, NOT_FOUND);
    });

    it('needs people:read (403 without it, 401 without a key); people:read alone is enough', async () => {
      const who = await tenant();
      const { personId } = await put(who, newSessionId(), visit(ago(1), 10, { email: 'ada@acme.com' }));
      const noScope = await t.createKey(who.organizationId, ['sessions:read', 'accounts:read']);
      const onlyPeople = await t.createKey(who.organizationId, ['people:read']);

      await request(t.server).get(PEOPLE).set('Authorization', `Bearer ${noScope}`).expect(403, FORBIDDEN);
      await request(t.server)
        .get(`${PEOPLE}/${personId}`)
        .set('Authorization', `Bearer ${noScope}`)
        .expect(403, FORBIDDEN);
      await request(t.server).get(PEOPLE).expect(401, UNAUTHORIZED);
      await request(t.server).get(`${PEOPLE}/${personId}`).expect(401, UNAUTHORIZED);
      // Authentication and scope come before validation.
      await request(t.server)
        .get(PEOPLE)
        .query({ buying_intent: 'bogus' })
        .set('Authorization', `Bearer ${noScope}`)
        .expect(403, FORBIDDEN);

      const res = await request(t.server).get(PEOPLE).set('x-api-key', onlyPeople).expect(200);
      expect((res.body as PeoplePage).people.map((p) => p.id)).toEqual([personId]);
      await request(t.server).get(`${PEOPLE}/${personId}`).set('x-api-key', onlyPeople).expect(200);
    });
  });
});

/** `iso` (UTC) rewritten with a +02:00 offset: the same instant. */
function offsetForm(iso: string): string {
  const shifted = new Date(Date.parse(iso) + 2 * 3_600_000).toISOString();
  return shifted.replace('Z', '+02:00');
}
