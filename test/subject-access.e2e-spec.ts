import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Scope } from '../src/common/auth/scopes';
import type {
  Link,
  Person,
  SessionDetail,
  SubjectAccess,
  Transcript,
  ValidationErrorAnswer,
} from './support/api-types';
import { folded, sameLink } from './support/fold';
import { createLinks } from './support/links';
import { ingest, sessionBody } from './support/sessions';
import { ALL_SCOPES, createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * Issue 34 point 6, docs/api.md §18.4: the right of access. For one email the answer holds exactly
 * what the organization holds about it (its person, every session visible or not with its
 * transcript, the Custom Links personalized for it and their event counts), each as the normal
 * routes answer it, and nothing of another person or organization; reading it charges nothing to
 * the transcript quota, and nothing about the email reaches a log line.
 */
jest.setTimeout(120_000);

const SUBJECTS = '/api/v1/privacy/subjects';
const DAY_MS = 86_400_000;
const TRANSCRIPT_DAILY_LIMIT = 3;
const RUN = randomBytes(4).toString('hex');
/** Addresses that occur nowhere but in this run: a log line holding one can only come from here. */
const ADA = `ada.zq${RUN}@acme.com`;
const BOB = `bob.zq${RUN}@acme.com`;
/** Holds Ada's address as a substring: an exact match must not find it. */
const NEIGHBOUR = `x${ADA}`;
const ADA_NAME = `Ada Zq${RUN}`;
const TRANSCRIPT_TEXT = `my number is zq${RUN}`;
const ENTRIES = [
  { speaker: 'agent', text: 'Hi Ada.', timestamp: null, sequenceNumber: 1 },
  { speaker: 'prospect', text: TRANSCRIPT_TEXT, timestamp: null, sequenceNumber: 2 },
];
const PRIVACY_SCOPES: Scope[] = ['privacy:read', 'privacy:write'];

const ago = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
const sessionAt = (days: number, overrides: Record<string, unknown>) => {
  const start = ago(days);
  return sessionBody({
    startTime: start,
    endTime: new Date(Date.parse(start) + 600_000).toISOString(),
    qualificationAssessedAt: start,
    ...overrides,
  });
};
/** The link routes answer `engagement.asOf` as each read's own instant: any instant in a comparison. */
const comparable = (answer: SubjectAccess): SubjectAccess => ({
  ...answer,
  customLinks: answer.customLinks.map(sameLink),
});
const noCounts = {
  open: 0,
  page_view: 0,
  session_started: 0,
  session_engaged: 0,
  session_ended: 0,
  lead_submitted: 0,
  meeting_clicked: 0,
  meeting_booked: 0,
  refused_open: 0,
};

describe('right of access (GET /api/v1/privacy/subjects)', () => {
  const logLines: string[] = [];
  let t: TestApp;
  let org: Tenant;
  let other: Tenant;
  /** Ada's sessions, newest first: visible, visible, staging, pending. */
  const ada = { visible: randomUUID(), upperCase: randomUUID(), staging: randomUUID(), pending: randomUUID() };
  const bobSession = randomUUID();
  const neighbourSession = randomUUID();
  const theirAdaSession = randomUUID();
  let adaLink: Link;
  let adaUpperLink: Link;
  let bobLink: Link;
  let neighbourLink: Link;
  let anonymousLink: Link;
  let theirAdaLink: Link;

  const get = (key: string | null, query: Record<string, string | string[]>) => {
    const req = request(t.server).get(SUBJECTS).query(query);
    return key === null ? req : req.set('x-api-key', key);
  };
  const read = <T>(key: string, path: string) =>
    request(t.server)
      .get(path)
      .set('x-api-key', key)
      .expect(200)
      .then((res) => res.body as T);

  beforeAll(async () => {
    // The logger is one per test file: this app is the file's first and only one.
    t = await createTestApp(
      {
        APP_ROLE: 'all',
        LOG_LEVEL: 'trace',
        RATE_LIMIT_PER_MINUTE: '100000',
        LINK_MUTATIONS_PER_MINUTE: '100000',
        TRANSCRIPT_DAILY_LIMIT: String(TRANSCRIPT_DAILY_LIMIT),
      },
      { logDestination: { write: (line: string) => logLines.push(line) } },
    );
    [org, other] = [await t.createTenant(), await t.createTenant()];

    const withTranscript = { transcript: { entries: ENTRIES } };
    const sessions: [Tenant, string, Record<string, unknown>][] = [
      [org, ada.visible, sessionAt(1, { email: ADA, name: ADA_NAME, ...withTranscript })],
      // Stored with the case it was typed in; it is Ada's all the same.
      [org, ada.upperCase, sessionAt(2, { email: ADA.toUpperCase(), name: ADA_NAME })],
      [org, ada.staging, sessionAt(3, { email: ADA, name: ADA_NAME, environment: 'staging', ...withTranscript })],
      [org, ada.pending, sessionAt(4, { email: ADA, name: ADA_NAME, analysisStatus: 'pending' })],
      [org, bobSession, sessionAt(1, { email: BOB, name: 'Bob', ...withTranscript })],
      [org, neighbourSession, sessionAt(1, { email: NEIGHBOUR, name: 'Xada', ...withTranscript })],
      [other, theirAdaSession, sessionAt(1, { email: ADA, name: ADA_NAME, ...withTranscript })],
    ];
    for (const [tenant, id, body] of sessions) await ingest(t.server, tenant.key, id, body).expect(200);

    [adaLink, adaUpperLink, bobLink, neighbourLink, anonymousLink] = await createLinks(t.server, org.key, [
      { firstName: 'Ada', email: ADA },
      { firstName: 'Ada', email: ADA.toUpperCase() },
      { firstName: 'Bob', email: BOB },
      { firstName: 'Xada', email: NEIGHBOUR },
      { firstName: 'Ada' },
    ]);
    [theirAdaLink] = await createLinks(t.server, other.key, [{ firstName: 'Ada', email: ADA }]);

    const event = (link: Link, type: string, extra: object = {}) => ({
      eventId: randomUUID(),
      type,
      customLinkId: link.id,
      occurredAt: ago(0.5),
      ...extra,
    });
    const post = (tenant: Tenant, events: object[]) =>
      request(t.server).post('/api/v1/events').set('x-api-key', tenant.key).send({ events }).expect(202);
    await post(org, [
      event(adaLink, 'open', { visitorId: 'v-ada' }),
      event(adaLink, 'open', { bot: true }),
      event(adaLink, 'page_view', { visitorId: 'v-ada', pageViewId: 'pv-1' }),
      event(adaLink, 'page_view', { visitorId: 'v-qa', pageViewId: 'pv-2', internal: true }),
      event(adaLink, 'session_started', { visitorId: 'v-ada', sessionId: ada.visible }),
      event(adaUpperLink, 'meeting_booked', { visitorId: 'v-ada' }),
      event(bobLink, 'open', { visitorId: 'v-bob' }),
      event(neighbourLink, 'open', { visitorId: 'v-x' }),
      event(anonymousLink, 'open', { visitorId: 'v-anon' }),
    ]);
    await post(other, [event(theirAdaLink, 'open', { visitorId: 'v-ada' })]);
    await folded(t.app, org.organizationId);
    await folded(t.app, other.organizationId);
  });
  afterAll(() => t.close());

  describe("a person's data", () => {
    let answer: SubjectAccess;
    beforeAll(async () => {
      answer = (await get(org.key, { email: ADA }).expect(200)).body as SubjectAccess;
    });

    it('names the email as it is matched: trimmed and lower-cased', () => {
      expect(answer.email).toBe(ADA);
    });

    it('holds the person as the person route answers it', async () => {
      expect(answer.person).not.toBeNull();
      const person = answer.person as Person;
      expect(await read<Person>(org.key, `/api/v1/people/${person.id}`)).toEqual(person);
      expect(person).toMatchObject({ email: ADA, name: ADA_NAME, totalSessions: 2 });
    });

    it('holds every session of the email, newest first, visible ones as their detail route answers them', async () => {
      expect(answer.sessions.map((session) => session.id)).toEqual([
        ada.visible,
        ada.upperCase,
        ada.staging,
        ada.pending,
      ]);
      for (const id of [ada.visible, ada.upperCase]) {
        const detail = await read<SessionDetail>(org.key, `/api/v1/sessions/${id}`);
        expect(answer.sessions.find((session) => session.id === id)).toEqual(detail);
      }
      // Seen through Ada's link (its session_started event): the detail derives the link and lifecycle.
      expect(answer.sessions[0]).toMatchObject({ customLinkId: adaLink.id, lifecycle: { stage: 'started' } });
      expect(answer.sessions[0].personId).toBe(answer.person?.id);
    });

    it('holds staging and pending sessions too, which the session routes do not show', async () => {
      for (const id of [ada.staging, ada.pending]) {
        await request(t.server).get(`/api/v1/sessions/${id}`).set('x-api-key', org.key).expect(404);
        expect(answer.sessions.find((session) => session.id === id)).toMatchObject({
          id,
          email: ADA,
          name: ADA_NAME,
          personId: null,
        });
      }
    });

    it("holds the sessions' transcripts in the sessions' order, as the transcript route answers them", async () => {
      const transcript = await read<Transcript>(org.key, `/api/v1/sessions/${ada.visible}/transcript`);
      expect(answer.transcripts).toEqual([transcript, { sessionId: ada.staging, entries: ENTRIES, total: 2 }]);
      expect(transcript).toEqual({ sessionId: ada.visible, entries: ENTRIES, total: 2 });
    });

    it('holds the Custom Links personalized for the email, newest first, as the link route answers them', async () => {
      const links = await Promise.all(
        [adaUpperLink, adaLink].map((link) => read<Link>(org.key, `/api/v1/custom-links/${link.id}`)),
      );
      // Created in one job: newest first is (createdAt, id) descending.
      const key = (link: Link) => `${link.createdAt} ${link.id}`;
      const newestFirst = [...links].sort((a, b) => (key(a) < key(b) ? 1 : -1));
      expect(answer.customLinks).toEqual(newestFirst.map(sameLink));
      expect(answer.customLinks.map((link) => link.email)).toEqual(expect.arrayContaining([ADA, ADA.toUpperCase()]));
    });

    it("counts each link's events, by type, with its bots and internal traffic, in the links' order", () => {
      const expected = new Map([
        [
          adaLink.id,
          {
            customLinkId: adaLink.id,
            total: 5,
            byType: { ...noCounts, open: 2, page_view: 2, session_started: 1 },
            bot: 1,
            internal: 1,
          },
        ],
        [
          adaUpperLink.id,
          {
            customLinkId: adaUpperLink.id,
            total: 1,
            byType: { ...noCounts, meeting_booked: 1 },
            bot: 0,
            internal: 0,
          },
        ],
      ]);
      expect(answer.linkEvents).toEqual(answer.customLinks.map((link) => expected.get(link.id)));
    });

    it('holds nothing of another person, of an email that merely contains it, or of another organization', () => {
      expect(answer.truncated).toBe(false);
      const text = JSON.stringify(answer).toLowerCase();
      for (const foreign of [
        BOB,
        NEIGHBOUR,
        bobSession,
        neighbourSession,
        theirAdaSession,
        bobLink.id,
        neighbourLink.id,
        anonymousLink.id,
        theirAdaLink.id,
        other.organizationId,
      ])
        expect({ foreign, found: text.includes(foreign.toLowerCase()) }).toEqual({ foreign, found: false });
    });

    it('is the same for the email in any case, with surrounding spaces, given twice, and with unknown parameters', async () => {
      for (const email of [ADA.toUpperCase(), `  ${ADA.replace('ada', 'AdA')} `]) {
        const again = (await get(org.key, { email }).expect(200)).body as SubjectAccess;
        expect(again).toEqual(comparable(answer));
      }
      const extra = (await get(org.key, { email: ADA, foo: 'bar', limit: '1' }).expect(200)).body as SubjectAccess;
      expect(extra).toEqual(comparable(answer));
      // Given twice, a query parameter counts with its last value (docs/api.md §11.2).
      const twice = (await get(org.key, { email: [BOB, ADA] }).expect(200)).body as SubjectAccess;
      expect(twice).toEqual(comparable(answer));
    });

    it("answers the other organization with its own person's data only", async () => {
      const theirs = (await get(other.key, { email: ADA }).expect(200)).body as SubjectAccess;
      expect(theirs.sessions.map((session) => session.id)).toEqual([theirAdaSession]);
      expect(theirs.transcripts.map((transcript) => transcript.sessionId)).toEqual([theirAdaSession]);
      expect(theirs.customLinks.map((link) => link.id)).toEqual([theirAdaLink.id]);
      expect(theirs.linkEvents).toEqual([
        { customLinkId: theirAdaLink.id, total: 1, byType: { ...noCounts, open: 1 }, bot: 0, internal: 0 },
      ]);
      expect(theirs.person?.id).not.toBe(answer.person?.id);
    });
  });

  it('answers an email nobody holds with a null person and empty lists', async () => {
    const nobody = `Nobody.zq${RUN}@Acme.com`;
    expect((await get(org.key, { email: nobody }).expect(200)).body).toEqual({
      email: nobody.toLowerCase(),
      person: null,
      sessions: [],
      transcripts: [],
      customLinks: [],
      linkEvents: [],
      truncated: false,
    });
  });

  describe('keys and scopes', () => {
    it('needs a key before anything else: 401, bad input or not', async () => {
      const unauthenticated = { detail: 'API key required or invalid.' };
      await get(null, { email: ADA }).expect(401, unauthenticated);
      await get(null, {}).expect(401, unauthenticated);
      await get('sk_live_00000000000000000000000000000000', { email: 'not-an-email' }).expect(401, unauthenticated);
    });

    it('needs privacy:read or privacy:write, which a key with every other scope lacks: 403 before validation', async () => {
      const forbidden = { detail: 'API key does not include the required scope.' };
      const others = await t.createKey(
        org.organizationId,
        ALL_SCOPES.filter((scope) => !PRIVACY_SCOPES.includes(scope)),
      );
      await get(others, { email: ADA }).expect(403, forbidden);
      await get(others, { email: 'not-an-email' }).expect(403, forbidden);
      for (const scope of PRIVACY_SCOPES) {
        const key = await t.createKey(org.organizationId, [scope]);
        const body = (await get(key, { email: ADA }).expect(200)).body as SubjectAccess;
        expect(body.sessions).toHaveLength(4);
      }
    });
  });

  describe('validation (422, pydantic shape at ["query","email"])', () => {
    const issuesOf = async (query: Record<string, string | string[]>) =>
      ((await get(org.key, query).expect(422)).body as ValidationErrorAnswer).detail;

    it('requires the email', async () => {
      expect(await issuesOf({})).toEqual([
        { type: 'missing', loc: ['query', 'email'], msg: 'Field required', input: null },
      ]);
    });

    it.each([
      ['no @', 'ada.acme.com'],
      ['no domain dot', 'ada@acme'],
      ['two @', 'ada@@acme.com'],
      ['blank', '   '],
    ])('refuses an address that is not one (%s) as ingestion does', async (_, email) => {
      expect(await issuesOf({ email })).toEqual([
        {
          type: 'value_error',
          loc: ['query', 'email'],
          msg: 'Value error, value is not a valid email address',
          input: email,
          ctx: { error: 'value is not a valid email address' },
        },
      ]);
    });

    it('refuses an empty and an over-long address by their length', async () => {
      expect(await issuesOf({ email: '' })).toEqual([
        {
          type: 'string_too_short',
          loc: ['query', 'email'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
      ]);
      const long = `${'a'.repeat(310)}@acme.com.xy`;
      expect(await issuesOf({ email: long })).toEqual([
        {
          type: 'string_too_long',
          loc: ['query', 'email'],
          msg: 'String should have at most 320 characters',
          input: long,
          ctx: { max_length: 320 },
        },
      ]);
    });
  });

  it('charges nothing to the daily transcript quota', async () => {
    const tenant = await t.createTenant();
    const id = randomUUID();
    const email = `quota.zq${RUN}@acme.com`;
    await ingest(t.server, tenant.key, id, sessionAt(1, { email, transcript: { entries: ENTRIES } })).expect(200);
    for (let i = 0; i < TRANSCRIPT_DAILY_LIMIT + 2; i++) {
      const answer = (await get(tenant.key, { email }).expect(200)).body as SubjectAccess;
      expect(answer.transcripts).toEqual([{ sessionId: id, entries: ENTRIES, total: 2 }]);
    }
    // The day's reads are all still there: exactly the limit succeeds, then the quota's 429.
    const transcript = () => request(t.server).get(`/api/v1/sessions/${id}/transcript`).set('x-api-key', tenant.key);
    for (let i = 0; i < TRANSCRIPT_DAILY_LIMIT; i++) await transcript().expect(200);
    const refused = await transcript().expect(429);
    expect(refused.headers['x-ratelimit-limit']).toBe(String(TRANSCRIPT_DAILY_LIMIT));
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('writes nothing about the email or the person in any log line', () => {
    // The capture works: the route's own request lines are there.
    const lines = logLines.map((line) => line.toLowerCase());
    expect(lines.some((line) => line.includes('"route":"/api/v1/privacy/subjects"'))).toBe(true);
    for (const secret of [ADA, BOB, ADA_NAME, TRANSCRIPT_TEXT, `zq${RUN}`])
      expect({ secret, logged: lines.filter((line) => line.includes(secret.toLowerCase())) }).toEqual({
        secret,
        logged: [],
      });
  });
});
