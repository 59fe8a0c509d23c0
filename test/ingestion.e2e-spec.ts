import request from 'supertest';
import { detailOf } from './support/api-responses';
import type { PeoplePage, SessionPage, Transcript } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';

/**
 * Session ingestion through HTTP: docs/api.md §13.1 (ingestion, mirrored tracking fields, 409 across
 * organizations), §7.3 (the 422 shape), §1.1 (timestamps); DECISIONS "Sessions, people, accounts".
 */

type Json = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNAUTHENTICATED = { detail: 'API key required or invalid.' };
const FORBIDDEN = { detail: 'API key does not include the required scope.' };
const CONFLICT = { detail: 'The operation conflicts with current state or idempotency history.' };
const SESSION_NOT_FOUND = { detail: 'Session not found, outside the organization, or not yet analyzed.' };
const TRACKING_KEYS = [
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'referrerUrl',
  'landingPageUrl',
  'device',
  'browser',
  'os',
  'geoCountry',
  'geoRegion',
  'geoCity',
];

/** A copy of `body` without `keys`. */
const without = (body: Json, ...keys: string[]): Json =>
  Object.fromEntries(Object.entries(body).filter(([k]) => !keys.includes(k)));

/** The pydantic issue for a body field outside its Literal choices (docs/api.md §7.3 `literal_error`). */
const enumIssue = (field: string, input: unknown, values: string[]) => {
  const expected = `${values
    .slice(0, -1)
    .map((v) => `'${v}'`)
    .join(', ')} or '${values[values.length - 1]}'`;
  return { type: 'literal_error', loc: ['body', field], msg: `Input should be ${expected}`, input, ctx: { expected } };
};
const INT_PARSING = 'Input should be a valid integer, unable to parse string as an integer';

describe('session ingestion', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The request-rate limit is another spec's subject.
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  const get = (who: Tenant, path: string) => request(t.server).get(path).set('Authorization', `Bearer ${who.key}`);
  const detail = (who: Tenant, id: string) => get(who, `/api/v1/sessions/${id}`);
  const detailOk = async (who: Tenant, id: string): Promise<Json> => (await detail(who, id).expect(200)).body as Json;
  const personOk = async (who: Tenant, id: string): Promise<Json> =>
    (await get(who, `/api/v1/people/${id}`).expect(200)).body as Json;
  const ingestOk = async (who: Tenant, id: string, body: Json): Promise<Json> =>
    (await ingest(t.server, who.key, id, body).expect(200)).body as Json;

  describe('200 response', () => {
    it('answers {id, personId, analysisStatus} for an analyzed production session with an email', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      const res = await ingest(t.server, who.key, id, sessionBody())
        .expect(200)
        .expect('Content-Type', /application\/json/);
      expect(res.body).toEqual({ id, personId: expect.stringMatching(UUID), analysisStatus: 'analyzed' });
      expect(await personOk(who, (res.body as Json).personId as string)).toMatchObject({
        email: 'ada@acme.com',
        totalSessions: 1,
      });
    });

    it('defaults analysisStatus to analyzed; staging, pending and email-less sessions have no person', async () => {
      const who = await t.createTenant();
      const cases: [Json, string, boolean][] = [
        [without(sessionBody(), 'analysisStatus', 'environment'), 'analyzed', true],
        [sessionBody({ environment: 'staging' }), 'analyzed', false],
        [sessionBody({ analysisStatus: 'pending' }), 'pending', false],
        [without(sessionBody(), 'email'), 'analyzed', false],
        [sessionBody({ email: '' }), 'analyzed', false],
      ];
      for (const [body, analysisStatus, hasPerson] of cases) {
        const id = newSessionId();
        expect(await ingestOk(who, id, body)).toEqual({
          id,
          personId: hasPerson ? expect.stringMatching(UUID) : null,
          analysisStatus,
        });
      }
    });

    it('accepts a body with startTime only', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      expect(await ingestOk(who, id, { startTime: '2026-11-20T10:00:00Z' })).toEqual({
        id,
        personId: null,
        analysisStatus: 'analyzed',
      });
      expect(await detailOk(who, id)).toMatchObject({
        id,
        startTime: '2026-11-20T10:00:00.000Z',
        email: null,
        personId: null,
      });
    });
  });

  describe('422 validation', () => {
    const body = sessionBody();
    const timeline = body.timelineEvents as Json[];
    const nested = (field: string, index: number, key: string, value: unknown, list = body[field] as Json[]) =>
      list.map((item, i) => (i === index ? { ...item, [key]: value } : item));

    it.each<[string, Json, Json]>([
      [
        'startTime "yesterday"',
        { startTime: 'yesterday' },
        {
          type: 'datetime_from_date_parsing',
          loc: ['body', 'startTime'],
          msg: 'Input should be a valid datetime or date, input is too short',
          input: 'yesterday',
          ctx: { error: 'input is too short' },
        },
      ],
      [
        'audioDurationSeconds "long"',
        { audioDurationSeconds: 'long' },
        { type: 'int_parsing', loc: ['body', 'audioDurationSeconds'], msg: INT_PARSING, input: 'long' },
      ],
      [
        'audioDurationSeconds 12.5',
        { audioDurationSeconds: 12.5 },
        {
          type: 'int_from_float',
          loc: ['body', 'audioDurationSeconds'],
          msg: 'Input should be a valid integer, got a number with a fractional part',
          input: 12.5,
        },
      ],
      [
        'name 42',
        { name: 42 },
        { type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: 42 },
      ],
      [
        'isDecisionMaker "maybe"',
        { isDecisionMaker: 'maybe' },
        {
          type: 'bool_parsing',
          loc: ['body', 'isDecisionMaker'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: 'maybe',
        },
      ],
      [
        'confidenceScore "high"',
        { confidenceScore: 'high' },
        {
          type: 'float_parsing',
          loc: ['body', 'confidenceScore'],
          msg: 'Input should be a valid number, unable to parse string as a number',
          input: 'high',
        },
      ],
      [
        'confidenceScore 1.5',
        { confidenceScore: 1.5 },
        {
          type: 'less_than_equal',
          loc: ['body', 'confidenceScore'],
          msg: 'Input should be less than or equal to 1',
          input: 1.5,
          ctx: { le: 1 },
        },
      ],
      [
        'confidenceScore -0.1',
        { confidenceScore: -0.1 },
        {
          type: 'greater_than_equal',
          loc: ['body', 'confidenceScore'],
          msg: 'Input should be greater than or equal to 0',
          input: -0.1,
          ctx: { ge: 0 },
        },
      ],
      [
        'nextSteps "call"',
        { nextSteps: 'call' },
        { type: 'list_type', loc: ['body', 'nextSteps'], msg: 'Input should be a valid list', input: 'call' },
      ],
      [
        'nextSteps[1] 7',
        { nextSteps: ['ok', 7] },
        { type: 'string_type', loc: ['body', 'nextSteps', 1], msg: 'Input should be a valid string', input: 7 },
      ],
      [
        'tracking "linkedin"',
        { tracking: 'linkedin' },
        {
          type: 'model_attributes_type',
          loc: ['body', 'tracking'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: 'linkedin',
        },
      ],
      [
        'tracking.device 3',
        { tracking: { device: 3 } },
        { type: 'string_type', loc: ['body', 'tracking', 'device'], msg: 'Input should be a valid string', input: 3 },
      ],
      [
        'qualificationStatus "maybe"',
        { qualificationStatus: 'maybe' },
        enumIssue('qualificationStatus', 'maybe', ['qualified', 'unqualified']),
      ],
      [
        'qualificationSource "robot"',
        { qualificationSource: 'robot' },
        enumIssue('qualificationSource', 'robot', ['automatic', 'manual']),
      ],
      [
        'buyingIntent "huge"',
        { buyingIntent: 'huge' },
        enumIssue('buyingIntent', 'huge', ['high', 'medium', 'low', 'none']),
      ],
      ['bookedStatus "yes"', { bookedStatus: 'yes' }, enumIssue('bookedStatus', 'yes', ['booked', 'not_booked'])],
      ['environment "dev"', { environment: 'dev' }, enumIssue('environment', 'dev', ['production', 'staging'])],
      [
        'analysisStatus "done"',
        { analysisStatus: 'done' },
        enumIssue('analysisStatus', 'done', ['pending', 'analyzed']),
      ],
      [
        'timelineEvents[1].timestampOffsetS "x"',
        { timelineEvents: nested('timelineEvents', 1, 'timestampOffsetS', 'x') },
        { type: 'int_parsing', loc: ['body', 'timelineEvents', 1, 'timestampOffsetS'], msg: INT_PARSING, input: 'x' },
      ],
      [
        'timelineEvents[0].featuresMentioned[0] 1',
        { timelineEvents: nested('timelineEvents', 0, 'featuresMentioned', [1]) },
        {
          type: 'string_type',
          loc: ['body', 'timelineEvents', 0, 'featuresMentioned', 0],
          msg: 'Input should be a valid string',
          input: 1,
        },
      ],
      [
        'timelineEvents[1] "x"',
        { timelineEvents: [timeline[0], 'x'] },
        {
          type: 'model_attributes_type',
          loc: ['body', 'timelineEvents', 1],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: 'x',
        },
      ],
      [
        'topics[0].topic 5',
        { topics: nested('topics', 0, 'topic', 5) },
        { type: 'string_type', loc: ['body', 'topics', 0, 'topic'], msg: 'Input should be a valid string', input: 5 },
      ],
      [
        'objections[0].handled "perhaps"',
        { objections: nested('objections', 0, 'handled', 'perhaps') },
        {
          type: 'bool_parsing',
          loc: ['body', 'objections', 0, 'handled'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: 'perhaps',
        },
      ],
      [
        'transcript.entries[0].sequenceNumber "first"',
        { transcript: { entries: [{ speaker: 'agent', text: 'Hi', sequenceNumber: 'first' }] } },
        {
          type: 'int_parsing',
          loc: ['body', 'transcript', 'entries', 0, 'sequenceNumber'],
          msg: INT_PARSING,
          input: 'first',
        },
      ],
    ])('%s: one issue, nothing stored', async (_label, overrides, issue) => {
      const who = await t.createTenant();
      const id = newSessionId();
      const res = await ingest(t.server, who.key, id, sessionBody(overrides)).expect(422);
      expect(res.body).toEqual({ detail: [issue] });
      await detail(who, id).expect(404, SESSION_NOT_FOUND);
    });

    it('missing startTime: `missing` with the whole body as input', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      const sent = without(sessionBody(), 'startTime');
      const res = await ingest(t.server, who.key, id, sent).expect(422);
      expect(res.body).toEqual({
        detail: [{ type: 'missing', loc: ['body', 'startTime'], msg: 'Field required', input: sent }],
      });
      await detail(who, id).expect(404, SESSION_NOT_FOUND);
    });

    it('an email that is not an address is a value_error', async () => {
      const who = await t.createTenant();
      const res = await ingest(t.server, who.key, newSessionId(), sessionBody({ email: 'not-an-email' })).expect(422);
      expect(detailOf(res)).toEqual([
        {
          type: 'value_error',
          loc: ['body', 'email'],
          msg: expect.stringMatching(/^Value error, ./),
          input: 'not-an-email',
          ctx: { error: expect.any(String) },
        },
      ]);
      const [issue] = detailOf(res);
      expect(issue.msg).toBe(`Value error, ${(issue.ctx as { error: string }).error}`);
    });

    it('confidenceScore 0 and 1 are within bounds', async () => {
      const who = await t.createTenant();
      for (const confidenceScore of [0, 1]) {
        const id = newSessionId();
        await ingest(t.server, who.key, id, sessionBody({ confidenceScore })).expect(200);
        expect(await detailOk(who, id)).toMatchObject({ confidenceScore });
      }
    });

    it('invalid path uuid: uuid_parsing at ["path","session_id"]', async () => {
      const who = await t.createTenant();
      const error =
        'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1';
      const res = await ingest(t.server, who.key, 'not-a-uuid', sessionBody()).expect(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'uuid_parsing',
            loc: ['path', 'session_id'],
            msg: `Input should be a valid UUID, ${error}`,
            input: 'not-a-uuid',
            ctx: { error },
          },
        ],
      });
    });

    it('reports several failures in one 422: path first, then the body fields in order', async () => {
      const who = await t.createTenant();
      const res = await ingest(
        t.server,
        who.key,
        'nope',
        sessionBody({
          startTime: 'yesterday',
          buyingIntent: 'huge',
          confidenceScore: 2,
          timelineEvents: nested('timelineEvents', 1, 'timestampOffsetS', 'x'),
          environment: 'dev',
        }),
      ).expect(422);
      expect(detailOf(res).map((i) => [i.type, i.loc, i.input])).toEqual([
        ['uuid_parsing', ['path', 'session_id'], 'nope'],
        ['datetime_from_date_parsing', ['body', 'startTime'], 'yesterday'],
        ['literal_error', ['body', 'buyingIntent'], 'huge'],
        ['less_than_equal', ['body', 'confidenceScore'], 2],
        ['int_parsing', ['body', 'timelineEvents', 1, 'timestampOffsetS'], 'x'],
        ['literal_error', ['body', 'environment'], 'dev'],
      ]);
    });

    it('a 422 on an existing session changes neither the session nor its person', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      const { personId } = await ingestOk(who, id, sessionBody());
      const before = await detailOk(who, id);
      const personBefore = await personOk(who, personId as string);

      const edited = sessionBody({
        name: 'Changed Name',
        buyingIntent: 'low',
        phone: null,
        qualificationStatus: 'maybe',
      });
      await ingest(t.server, who.key, id, edited).expect(422);

      expect(await detailOk(who, id)).toEqual(before);
      expect(await personOk(who, personId as string)).toEqual(personBefore);
    });
  });

  describe('authentication and scope', () => {
    it('no key or an invalid key: 401, even with an invalid body; nothing stored', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      for (const res of [
        await request(t.server).put(`/api/v1/ingest/sessions/${id}`).send(sessionBody()),
        await request(t.server).put(`/api/v1/ingest/sessions/${id}`).send({ startTime: 'yesterday' }),
        await ingest(t.server, 'sk_live_00000000000000000000000000000000', id, sessionBody()),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual(UNAUTHENTICATED);
      }
      await detail(who, id).expect(404, SESSION_NOT_FOUND);
    });

    it('a key without sessions:write: 403, even with an invalid body; nothing stored', async () => {
      const who = await t.createTenant();
      const readOnly = await t.createKey(who.organizationId, ['sessions:read', 'transcripts:read', 'people:read']);
      const id = newSessionId();
      await ingest(t.server, readOnly, id, sessionBody()).expect(403, FORBIDDEN);
      await ingest(t.server, readOnly, 'not-a-uuid', { startTime: 'yesterday' }).expect(403, FORBIDDEN);
      await detail(who, id).expect(404, SESSION_NOT_FOUND);
    });

    it('a key with sessions:write alone may ingest', async () => {
      const who = await t.createTenant();
      const writer = await t.createKey(who.organizationId, ['sessions:write']);
      const id = newSessionId();
      await ingest(t.server, writer, id, sessionBody()).expect(200);
      expect(await detailOk(who, id)).toMatchObject({ id, displayId: 'S-1001' });
    });
  });

  describe('idempotency and replacement', () => {
    it('the same body twice answers the same and changes neither the session nor the person', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      const body = sessionBody();
      const first = await ingestOk(who, id, body);
      const before = await detailOk(who, id);
      const personBefore = await personOk(who, first.personId as string);
      expect(personBefore.intentCalculatedAt).toMatch(ISO_MS_Z);
      // Let the clock move past intentCalculatedAt, so a recomputation would show.
      await eventually(async () => Date.now() > Date.parse(personBefore.intentCalculatedAt as string) + 5, 1000, 5);

      expect(await ingestOk(who, id, sessionBody())).toEqual(first);
      expect(await detailOk(who, id)).toEqual(before);
      const personAfter = await personOk(who, first.personId as string);
      expect(personAfter.intentCalculatedAt).toBe(personBefore.intentCalculatedAt);
      expect(personAfter).toEqual(personBefore);
    });

    it('re-ingestion with an edit replaces the session: new values show, fields left out become null', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      const first = await ingestOk(who, id, sessionBody());

      const edited = without(
        sessionBody({ name: 'Ada King', buyingIntent: 'medium', bookedStatus: 'not_booked', confidenceScore: 0.4 }),
        'phone',
        'budgetRange',
        'qualificationReason',
        'nextSteps',
        'timelineEvents',
        'objections',
        'tracking',
        'isDecisionMaker',
        'summaryMarkdown',
      );
      expect(await ingestOk(who, id, edited)).toEqual(first);

      const d = await detailOk(who, id);
      expect(d).toMatchObject({
        name: 'Ada King',
        buyingIntent: 'medium',
        bookedStatus: 'not_booked',
        confidenceScore: 0.4,
        phone: null,
        budgetRange: null,
        qualificationReason: null,
        isDecisionMaker: null,
        summaryMarkdown: null,
        nextSteps: [],
        timelineEvents: [],
        objections: [],
        utmSource: null,
        device: null,
        geoCountry: null,
        // Kept because they were sent again.
        displayId: 'S-1001',
        topics: sessionBody().topics as Json[],
        summaryBullets: sessionBody().summaryBullets,
      });
      // tracking is always an object: without any known value, 13 nulls.
      expect(d.tracking).toEqual(Object.fromEntries(TRACKING_KEYS.map((k) => [k, null])));
      expect(await personOk(who, first.personId as string)).toMatchObject({ name: 'Ada King', buyingIntent: 'medium' });
    });

    it('a re-ingested session can become pending (hidden) and analyzed again', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      await ingestOk(who, id, sessionBody());
      expect(await ingestOk(who, id, sessionBody({ analysisStatus: 'pending' }))).toEqual({
        id,
        personId: null,
        analysisStatus: 'pending',
      });
      await detail(who, id).expect(404, SESSION_NOT_FOUND);
      expect(await ingestOk(who, id, sessionBody())).toEqual({
        id,
        personId: expect.stringMatching(UUID),
        analysisStatus: 'analyzed',
      });
      await detail(who, id).expect(200);
    });

    it("a session id already used by another organization is a 409; the owner's session is untouched", async () => {
      const [owner, intruder] = [await t.createTenant(), await t.createTenant()];
      const id = newSessionId();
      await ingestOk(owner, id, sessionBody());
      const before = await detailOk(owner, id);

      await ingest(t.server, intruder.key, id, sessionBody({ name: 'Mallory' })).expect(409, CONFLICT);
      await ingest(t.server, intruder.key, id, sessionBody()).expect(409, CONFLICT);

      expect(await detailOk(owner, id)).toEqual(before);
      await detail(intruder, id).expect(404, SESSION_NOT_FOUND);
      const people = (await get(intruder, '/api/v1/people').expect(200)).body as PeoplePage;
      expect(people.people).toEqual([]);
      expect(people.pagination).toMatchObject({ total: 0 });
    });
  });

  describe('attribution mirroring', () => {
    it('top-level utmSource, device, geoCountry without tracking fill tracking', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      await ingestOk(
        who,
        id,
        without(sessionBody({ utmSource: 'google', device: 'mobile', geoCountry: 'DE' }), 'tracking'),
      );
      const d = await detailOk(who, id);
      expect(d).toMatchObject({ utmSource: 'google', device: 'mobile', geoCountry: 'DE' });
      expect(d.tracking).toEqual({
        ...Object.fromEntries(TRACKING_KEYS.map((k) => [k, null])),
        utmSource: 'google',
        device: 'mobile',
        geoCountry: 'DE',
      });
    });

    it('tracking alone fills the top-level fields', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      const body = sessionBody();
      await ingestOk(who, id, body);
      const d = await detailOk(who, id);
      expect(d).toMatchObject({ utmSource: 'linkedin', device: 'desktop', geoCountry: 'US' });
      expect(d.tracking).toEqual(body.tracking);
    });

    it('when both are given, tracking wins at the top level and in tracking', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      const body = sessionBody({ utmSource: 'google', device: 'mobile', geoCountry: 'DE' });
      await ingestOk(who, id, body);
      const d = await detailOk(who, id);
      expect(d).toMatchObject({ utmSource: 'linkedin', device: 'desktop', geoCountry: 'US' });
      expect(d.tracking).toEqual(body.tracking);
      const list = (await get(who, '/api/v1/sessions').expect(200)).body as SessionPage;
      expect(list.sessions).toEqual([
        expect.objectContaining({ id, utmSource: 'linkedin', device: 'desktop', geoCountry: 'US' }),
      ]);
    });

    it('per field: a top-level value fills a tracking key that tracking leaves out', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      await ingestOk(
        who,
        id,
        sessionBody({ utmSource: 'newsletter', tracking: { utmMedium: 'email', device: 'tablet' } }),
      );
      const d = await detailOk(who, id);
      expect(d).toMatchObject({ utmSource: 'newsletter', device: 'tablet', geoCountry: null });
      expect(d.tracking).toEqual({
        ...Object.fromEntries(TRACKING_KEYS.map((k) => [k, null])),
        utmSource: 'newsletter',
        utmMedium: 'email',
        device: 'tablet',
      });
    });
  });

  describe('timestamps', () => {
    it('reads timestamps without offset as UTC, converts offsets, and answers in ...000Z form', async () => {
      const who = await t.createTenant();
      const id = newSessionId();
      await ingestOk(
        who,
        id,
        sessionBody({
          startTime: '2026-11-20T10:00:00',
          endTime: '2026-11-20T12:30:00+02:00',
          qualificationAssessedAt: '2026-11-20T10:31:00.5',
          transcript: {
            entries: [{ speaker: 'agent', text: 'Hello', timestamp: '2026-11-20T05:00:01-05:00', sequenceNumber: 1 }],
          },
        }),
      );
      const d = await detailOk(who, id);
      expect(d).toMatchObject({
        startTime: '2026-11-20T10:00:00.000Z',
        endTime: '2026-11-20T10:30:00.000Z',
        qualificationAssessedAt: '2026-11-20T10:31:00.500Z',
        intentCalculatedAt: expect.stringMatching(ISO_MS_Z),
      });
      const transcript = (await get(who, `/api/v1/sessions/${id}/transcript`).expect(200)).body as Transcript;
      expect(transcript.entries).toEqual([
        { speaker: 'agent', text: 'Hello', timestamp: '2026-11-20T10:00:01.000Z', sequenceNumber: 1 },
      ]);
      const person = await personOk(who, d.personId as string);
      expect(person).toMatchObject({
        firstSeenAt: '2026-11-20T10:00:00.000Z',
        lastSeenAt: '2026-11-20T10:30:00.000Z',
        totalTimeSpentSeconds: 1800,
      });
    });
  });
});
