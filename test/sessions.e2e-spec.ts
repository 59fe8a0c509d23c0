import request from 'supertest';
import { DataSource } from 'typeorm';
import type { IngestedSession, Person, SessionDetail, SessionPage } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';
import { replayedEverywhere } from './support/replica';
import { AppConfigService } from '../src/config/app-config';

/**
 * Sessions list and detail through HTTP: docs/api.md §2.1, §2.2, §4.1, §7; §1.1 (always-present
 * fields), §11 (filters, filter names, ordering), §7.2 (404 text), §13.3 (person-derived fields);
 * DECISIONS "Sessions, people, accounts".
 */

type Json = Record<string, unknown>;
type Query = Record<string, string | number>;

const SESSIONS = '/api/v1/sessions';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SESSION_NOT_FOUND = { detail: 'Session not found, outside the organization, or not yet analyzed.' };
const FORBIDDEN = { detail: 'API key does not include the required scope.' };
const UNAUTHENTICATED = { detail: 'API key required or invalid.' };

/** docs/api.md §2.1. */
const LIST_FIELDS = [
  'id',
  'displayId',
  'startTime',
  'endTime',
  'sessionType',
  'email',
  'name',
  'business',
  'qualificationStatus',
  'buyingIntent',
  'bookedStatus',
  'sessionStatus',
  'sentiment',
  'engagementLevel',
  'primaryIntent',
  'summaryMarkdown',
  'utmSource',
  'device',
  'geoCountry',
  'personId',
  'qualificationRationale',
  'qualificationSource',
  'qualificationAssessedAt',
  'qualificationRubricVersionId',
  'overallIntent',
  'intentScore',
  'intentCalculatedAt',
];
/** docs/api.md §2.2, in addition to §2.1. */
const DETAIL_FIELDS = [
  ...LIST_FIELDS,
  'phone',
  'qualificationReason',
  'qualificationStage',
  'budgetRange',
  'buyingTimeline',
  'decisionMakerRole',
  'isDecisionMaker',
  'confidenceScore',
  'nextSteps',
  'summaryBullets',
  'audioDurationSeconds',
  'timelineEvents',
  'topics',
  'objections',
  'tracking',
  'customLinkId',
  'customLinkCampaignId',
  'lifecycle',
];
/** Fields an ingestion body gives the session as they are. */
const OWN_LIST_FIELDS = [
  'displayId',
  'startTime',
  'endTime',
  'sessionType',
  'email',
  'name',
  'business',
  'buyingIntent',
  'bookedStatus',
  'sessionStatus',
  'sentiment',
  'engagementLevel',
  'primaryIntent',
  'summaryMarkdown',
  'qualificationRationale',
  'qualificationSource',
  'qualificationAssessedAt',
  'qualificationRubricVersionId',
];
const OWN_DETAIL_FIELDS = [
  ...OWN_LIST_FIELDS,
  'phone',
  'qualificationReason',
  'qualificationStage',
  'budgetRange',
  'buyingTimeline',
  'decisionMakerRole',
  'isDecisionMaker',
  'confidenceScore',
  'nextSteps',
  'summaryBullets',
  'audioDurationSeconds',
  'timelineEvents',
  'topics',
  'objections',
  'tracking',
];
const PERSON_FIELDS = ['overallIntent', 'intentScore', 'intentCalculatedAt'];

const pick = (o: Json, keys: string[]): Json => Object.fromEntries(keys.map((k) => [k, o[k]]));
const without = (body: Json, ...keys: string[]): Json =>
  Object.fromEntries(Object.entries(body).filter(([k]) => !keys.includes(k)));

/** What a list item must hold for a session ingested from `body` (timestamps already in ...000Z form). */
function expectedItem(id: string, body: Json, person: Json): Json {
  const tracking = body.tracking as Json;
  return {
    id,
    ...pick(body, OWN_LIST_FIELDS),
    utmSource: tracking.utmSource,
    device: tracking.device,
    geoCountry: tracking.geoCountry,
    personId: person.id,
    qualificationStatus: person.qualificationStatus,
    ...pick(person, PERSON_FIELDS),
  };
}

function expectedDetail(id: string, body: Json, person: Json): Json {
  return {
    ...expectedItem(id, body, person),
    ...pick(body, OWN_DETAIL_FIELDS),
    customLinkId: null,
    customLinkCampaignId: null,
    lifecycle: null,
  };
}

/** The pydantic `enum` issue for a query parameter, with the raw string as input. */
const queryEnumIssue = (name: string, input: string, values: string[]) => {
  const expected = `${values
    .slice(0, -1)
    .map((v) => `'${v}'`)
    .join(', ')} or '${values[values.length - 1]}'`;
  return { type: 'enum', loc: ['query', name], msg: `Input should be ${expected}`, input, ctx: { expected } };
};

describe('sessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The request-rate limit is another spec's subject.
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  const get = (key: string, path: string) => request(t.server).get(path).set('Authorization', `Bearer ${key}`);
  const list = (who: Tenant, query: Query = {}) => get(who.key, SESSIONS).query(query);
  const listOk = async (who: Tenant, query: Query = {}): Promise<SessionPage> =>
    (await list(who, query).expect(200)).body as SessionPage;
  const listIds = async (who: Tenant, query: Query = {}) => (await listOk(who, query)).sessions.map((s) => s.id);
  const detail = (who: Tenant, id: string) => get(who.key, `${SESSIONS}/${id}`);
  const detailOk = async (who: Tenant, id: string): Promise<SessionDetail> =>
    (await detail(who, id).expect(200)).body as SessionDetail;
  const personOk = async (who: Tenant, id: string): Promise<Person> =>
    (await get(who.key, `/api/v1/people/${id}`).expect(200)).body as Person;
  /** Ingests `body` under a new id; returns the id and the answer's personId. */
  const seed = async (who: Tenant, body: Json) => {
    const id = newSessionId();
    const res = await ingest(t.server, who.key, id, body).expect(200);
    return { id, personId: (res.body as IngestedSession).personId };
  };

  describe('visibility', () => {
    it('lists analyzed production sessions only; staging and pending are 404 on detail', async () => {
      const who = await t.createTenant();
      const shown = await seed(who, sessionBody({ startTime: '2026-11-20T10:00:00.000Z' }));
      const minimal = await seed(who, { startTime: '2026-11-19T10:00:00.000Z' });
      const staging = await seed(who, sessionBody({ environment: 'staging', startTime: '2026-11-21T10:00:00.000Z' }));
      const pending = await seed(
        who,
        sessionBody({ analysisStatus: 'pending', startTime: '2026-11-21T11:00:00.000Z' }),
      );
      const both = await seed(
        who,
        sessionBody({ environment: 'staging', analysisStatus: 'pending', startTime: '2026-11-21T12:00:00.000Z' }),
      );

      const page = await listOk(who);
      expect(page.sessions.map((s) => s.id)).toEqual([shown.id, minimal.id]);
      expect(page.pagination).toEqual({ total: 2, limit: 50, offset: 0, nextCursor: null });
      for (const hidden of [staging, pending, both]) {
        expect(hidden.personId).toBeNull();
        await detail(who, hidden.id).expect(404, SESSION_NOT_FOUND);
      }
      await detail(who, shown.id).expect(200);
      await detail(who, minimal.id).expect(200);
    });

    it('detail of an unknown id is 404; an invalid id is 422 uuid_parsing', async () => {
      const who = await t.createTenant();
      await detail(who, newSessionId()).expect(404, SESSION_NOT_FOUND);
      const error = 'invalid group count: expected 5, found 2';
      expect((await detail(who, 'abc-def').expect(422)).body).toEqual({
        detail: [
          {
            type: 'uuid_parsing',
            loc: ['path', 'session_id'],
            msg: `Input should be a valid UUID, ${error}`,
            input: 'abc-def',
            ctx: { error },
          },
        ],
      });
    });

    it('needs sessions:read: 401 without a key, 403 for a key without the scope', async () => {
      const who = await t.createTenant();
      const { id } = await seed(who, sessionBody());
      const others = await t.createKey(who.organizationId, [
        'sessions:write',
        'transcripts:read',
        'people:read',
        'accounts:read',
      ]);
      for (const path of [SESSIONS, `${SESSIONS}/${id}`]) {
        await request(t.server).get(path).expect(401, UNAUTHENTICATED);
        await get(others, path).expect(403, FORBIDDEN);
      }
      // 403 before 422.
      await get(others, SESSIONS).query({ limit: 0 }).expect(403, FORBIDDEN);
      await get(others, `${SESSIONS}/nope`).expect(403, FORBIDDEN);
      const reader = await t.createKey(who.organizationId, ['sessions:read']);
      expect(((await get(reader, SESSIONS).expect(200)).body as SessionPage).sessions.map((s) => s.id)).toEqual([id]);
    });

    it("never shows another organization's sessions; their ids are 404", async () => {
      const [a, b] = [await t.createTenant(), await t.createTenant()];
      const a1 = await seed(a, sessionBody({ startTime: '2026-11-18T10:00:00.000Z' }));
      const a2 = await seed(a, sessionBody({ startTime: '2026-11-19T10:00:00.000Z', email: 'grace@navy.mil' }));
      const b1 = await seed(b, sessionBody({ startTime: '2026-11-20T10:00:00.000Z' }));
      const b2 = await seed(b, sessionBody({ startTime: '2026-11-21T10:00:00.000Z', email: 'grace@navy.mil' }));

      expect(await listOk(a)).toEqual({
        sessions: [expect.objectContaining({ id: a2.id }), expect.objectContaining({ id: a1.id })],
        pagination: { total: 2, limit: 50, offset: 0, nextCursor: null },
      });
      expect(await listIds(b)).toEqual([b2.id, b1.id]);
      expect(await listIds(a, { email: 'grace' })).toEqual([a2.id]);
      for (const id of [b1.id, b2.id]) await detail(a, id).expect(404, SESSION_NOT_FOUND);
      for (const id of [a1.id, a2.id]) await detail(b, id).expect(404, SESSION_NOT_FOUND);
      // The same email is a different person in each organization.
      expect(a1.personId).toMatch(UUID);
      expect(b1.personId).toMatch(UUID);
      expect(a1.personId).not.toBe(b1.personId);
    });
  });

  describe('ordering', () => {
    it('newest startTime first, then id descending on equal startTime', async () => {
      const who = await t.createTenant();
      const same = '2026-11-15T09:00:00.000Z';
      const older = await seed(who, sessionBody({ startTime: '2026-11-14T09:00:00.000Z' }));
      const tied = [
        await seed(who, sessionBody({ startTime: same })),
        await seed(who, sessionBody({ startTime: same })),
        await seed(who, sessionBody({ startTime: same })),
      ];
      const newest = await seed(who, sessionBody({ startTime: '2026-11-16T09:00:00.000Z' }));
      // Offsets and missing offsets name the same instant as `same`.
      tied.push(
        await seed(who, sessionBody({ startTime: '2026-11-15T10:00:00+01:00' })),
        await seed(who, sessionBody({ startTime: '2026-11-15T09:00:00' })),
      );

      const tiedDesc = tied
        .map((s) => s.id)
        .sort()
        .reverse();
      expect(await listIds(who)).toEqual([newest.id, ...tiedDesc, older.id]);
      // Pages follow the same total order.
      expect(await listIds(who, { limit: 2, offset: 2 })).toEqual(tiedDesc.slice(1, 3));
    });
  });

  describe('fields', () => {
    it('timestamps keep their milliseconds in list and detail; PostgreSQL microseconds are truncated, never rounded', async () => {
      const who = await t.createTenant();
      const { id } = await seed(
        who,
        sessionBody({ startTime: '2026-11-20T10:00:00.123Z', endTime: '2026-11-20T10:30:00.999Z' }),
      );
      // updated_at comes from now(), with microseconds: set one whose rounding would differ from
      // truncation, past the trigger that stamps it (replica role: no ordinary trigger fires; on
      // Citus the trigger fires on the shard, so the role goes to the workers too).
      await t.app.get(DataSource).transaction(async (tx) => {
        await tx.query(`SET LOCAL citus.propagate_set_commands = 'local'`);
        await tx.query(`SET LOCAL session_replication_role = replica`);
        await tx.query(`UPDATE sessions SET updated_at = '2026-11-21T08:09:10.987654Z' WHERE id = $1`, [id]);
      });
      // Written behind the service's back: with reads on replicas, wait until they replayed it.
      await replayedEverywhere(t.app.get(DataSource), t.app.get(AppConfigService).values.replicas.urls);
      const times = {
        startTime: '2026-11-20T10:00:00.123Z',
        endTime: '2026-11-20T10:30:00.999Z',
        updatedAt: '2026-11-21T08:09:10.987Z',
      };
      expect((await listOk(who)).sessions[0]).toMatchObject({ id, ...times });
      expect(await detailOk(who, id)).toMatchObject({ id, ...times });
    });

    it('a list item holds every field of docs/api.md §2.1 with the ingested values and the person’s', async () => {
      const who = await t.createTenant();
      const body = sessionBody();
      const { id, personId } = await seed(who, body);
      const person = await personOk(who, personId as string);
      // One high-intent session: weighted mean 3, no frequency bonus (stored unrounded: 3 up to float error).
      expect(person).toMatchObject({
        id: personId,
        overallIntent: 'high',
        intentScore: expect.closeTo(3, 12),
        qualificationStatus: 'qualified',
        intentCalculatedAt: expect.stringMatching(ISO_MS_Z),
      });

      const [item] = (await listOk(who)).sessions;
      expect(Object.keys(item)).toEqual(expect.arrayContaining(LIST_FIELDS));
      expect(item).toEqual(expect.objectContaining(expectedItem(id, body, person)));
      expect(item).toEqual(
        expect.objectContaining({
          id,
          displayId: 'S-1001',
          startTime: '2026-11-20T10:00:00.000Z',
          endTime: '2026-11-20T10:30:00.000Z',
          utmSource: 'linkedin',
          device: 'desktop',
          geoCountry: 'US',
          personId,
          qualificationStatus: 'qualified',
          overallIntent: 'high',
          intentScore: person.intentScore,
        }),
      );
    });

    it('the detail holds every field of docs/api.md §2.1 and §2.2 with the ingested values, nested arrays and all 13 tracking keys', async () => {
      const who = await t.createTenant();
      const body = sessionBody();
      const { id, personId } = await seed(who, body);
      const person = await personOk(who, personId as string);

      const d = await detailOk(who, id);
      expect(Object.keys(d)).toEqual(expect.arrayContaining(DETAIL_FIELDS));
      expect(d).toEqual(expect.objectContaining(expectedDetail(id, body, person)));
      expect(d.timelineEvents).toEqual([
        {
          milestoneType: 'intro',
          description: 'Introductions',
          timestampOffsetS: 0,
          featuresMentioned: [],
          sequenceOrder: 1,
        },
        {
          milestoneType: 'demo',
          description: 'Showed SSO',
          timestampOffsetS: 300,
          featuresMentioned: ['SSO'],
          sequenceOrder: 2,
        },
      ]);
      expect(d.topics).toEqual([
        { topic: 'pricing', interestLevel: 'high', timeDiscussedS: 240, outcome: 'follow_up' },
      ]);
      expect(d.objections).toEqual([
        {
          objectionType: 'price',
          description: 'Too expensive',
          severity: 'medium',
          handled: true,
          resolutionNotes: 'Discount offered',
          timestampOffsetS: 900,
        },
      ]);
      expect(d.tracking).toEqual({
        utmSource: 'linkedin',
        utmMedium: 'social',
        utmCampaign: 'q4',
        utmTerm: null,
        utmContent: null,
        referrerUrl: 'https://www.linkedin.com/',
        landingPageUrl: 'https://demo.example.com/',
        device: 'desktop',
        browser: 'Chrome',
        os: 'macOS',
        geoCountry: 'US',
        geoRegion: 'CA',
        geoCity: 'San Francisco',
      });
      // The list item is the detail's docs/api.md §2.1 part.
      const [item] = (await listOk(who)).sessions;
      expect(pick(item, LIST_FIELDS)).toEqual(pick(d, LIST_FIELDS));
    });

    it('unknown values are null and lists are []; a session without email has no person', async () => {
      const who = await t.createTenant();
      const { id, personId } = await seed(who, { startTime: '2026-11-20T10:00:00.000Z' });
      expect(personId).toBeNull();
      const nulls = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, null]));

      const [item] = (await listOk(who)).sessions;
      expect(Object.keys(item)).toEqual(expect.arrayContaining(LIST_FIELDS));
      expect(item).toEqual(
        expect.objectContaining({ ...nulls(LIST_FIELDS), id, startTime: '2026-11-20T10:00:00.000Z' }),
      );

      const d = await detailOk(who, id);
      expect(Object.keys(d)).toEqual(expect.arrayContaining(DETAIL_FIELDS));
      const lists = ['nextSteps', 'summaryBullets', 'timelineEvents', 'topics', 'objections'];
      expect(d).toEqual(
        expect.objectContaining({
          ...nulls(DETAIL_FIELDS.filter((k) => k !== 'tracking')),
          ...Object.fromEntries(lists.map((k) => [k, []])),
          id,
          startTime: '2026-11-20T10:00:00.000Z',
        }),
      );
      // tracking is always an object: with nothing known, 13 nulls.
      expect(d.tracking).toEqual(nulls(Object.keys(sessionBody().tracking as Json)));
    });

    it('a session with an email but the rest unknown still has its person', async () => {
      const who = await t.createTenant();
      const { id, personId } = await seed(who, { startTime: '2026-11-20T10:00:00.000Z', email: 'solo@example.org' });
      expect(personId).toMatch(UUID);
      const person = await personOk(who, personId as string);
      expect(await detailOk(who, id)).toEqual(
        expect.objectContaining({ personId, email: 'solo@example.org', ...pick(person, PERSON_FIELDS) }),
      );
    });
  });

  describe('person-derived fields', () => {
    it('personId, overallIntent, intentScore, intentCalculatedAt are the person’s on every session of that email', async () => {
      const who = await t.createTenant();
      const first = await seed(
        who,
        sessionBody({ email: 'grace@navy.mil', startTime: '2026-11-18T10:00:00.000Z', buyingIntent: 'low' }),
      );
      const second = await seed(
        who,
        sessionBody({ email: 'GRACE@navy.mil', startTime: '2026-11-20T10:00:00.000Z', buyingIntent: 'high' }),
      );
      const other = await seed(
        who,
        sessionBody({ email: 'ada@acme.com', startTime: '2026-11-19T10:00:00.000Z', buyingIntent: 'none' }),
      );
      expect(second.personId).toBe(first.personId);
      expect(other.personId).not.toBe(first.personId);

      const grace = await personOk(who, first.personId as string);
      const ada = await personOk(who, other.personId as string);
      expect(grace).toMatchObject({ totalSessions: 2, buyingIntent: 'high' });
      const expectations: [string, Json, string][] = [
        [second.id, grace, 'high'],
        [other.id, ada, 'none'],
        [first.id, grace, 'low'],
      ];
      const items = (await listOk(who)).sessions;
      expect(items.map((s) => s.id)).toEqual(expectations.map(([id]) => id));
      for (const [index, [id, person, ownIntent]] of expectations.entries()) {
        const derived = { personId: person.id, ...pick(person, PERSON_FIELDS) };
        expect(items[index]).toEqual(expect.objectContaining({ ...derived, buyingIntent: ownIntent }));
        expect(await detailOk(who, id)).toEqual(expect.objectContaining({ ...derived, buyingIntent: ownIntent }));
      }
    });

    it.each([
      ['earlier', '2026-11-18T11:00:00.000Z', 'unqualified'],
      ['equal', '2026-11-18T12:00:00.000Z', 'unqualified'],
      ['later', '2026-11-18T13:00:00.000Z', 'qualified'],
    ])(
      'an automatic `qualified` assessed %s than a manual `unqualified` one: both sessions show %s',
      async (_when, automaticAssessedAt, effective) => {
        const who = await t.createTenant();
        const manual = await seed(
          who,
          sessionBody({
            email: 'lin@corp.io',
            startTime: '2026-11-18T10:00:00.000Z',
            qualificationStatus: 'unqualified',
            qualificationSource: 'manual',
            qualificationAssessedAt: '2026-11-18T12:00:00.000Z',
            qualificationRationale: 'Reviewed by sales: no budget.',
          }),
        );
        const automatic = await seed(
          who,
          sessionBody({
            email: 'lin@corp.io',
            startTime: '2026-11-20T10:00:00.000Z',
            qualificationStatus: 'qualified',
            qualificationSource: 'automatic',
            qualificationAssessedAt: automaticAssessedAt,
          }),
        );
        const other = effective === 'qualified' ? 'unqualified' : 'qualified';

        const person = await personOk(who, manual.personId as string);
        expect(person.qualificationStatus).toBe(effective);
        const items = (await listOk(who)).sessions;
        expect(items.map((s) => [s.id, s.qualificationStatus])).toEqual([
          [automatic.id, effective],
          [manual.id, effective],
        ]);
        // Each session keeps its own assessment details.
        expect(await detailOk(who, manual.id)).toEqual(
          expect.objectContaining({
            qualificationStatus: effective,
            qualificationSource: 'manual',
            qualificationAssessedAt: '2026-11-18T12:00:00.000Z',
            qualificationRationale: 'Reviewed by sales: no budget.',
          }),
        );
        expect(await detailOk(who, automatic.id)).toEqual(
          expect.objectContaining({
            qualificationStatus: effective,
            qualificationSource: 'automatic',
            qualificationAssessedAt: automaticAssessedAt,
          }),
        );
        // The filter uses the effective qualification too.
        expect(await listIds(who, { qualification_status: effective })).toEqual([automatic.id, manual.id]);
        expect(await listIds(who, { qualification_status: other })).toEqual([]);
      },
    );
  });

  describe('enum and time filters', () => {
    // A read-only fixture in its own organization, one session per day, each with its own email.
    const ROWS: Json[] = [
      {
        key: 'a',
        startTime: '2026-11-10T10:00:00.000Z',
        qualificationStatus: 'qualified',
        buyingIntent: 'high',
        bookedStatus: 'booked',
      },
      {
        key: 'b',
        startTime: '2026-11-11T10:00:00.000Z',
        qualificationStatus: 'unqualified',
        buyingIntent: 'medium',
        bookedStatus: 'not_booked',
      },
      {
        key: 'c',
        startTime: '2026-11-12T10:00:00.000Z',
        qualificationStatus: 'qualified',
        buyingIntent: 'low',
        bookedStatus: 'not_booked',
      },
      { key: 'd', startTime: '2026-11-13T10:00:00.000Z', buyingIntent: 'none', bookedStatus: 'booked' },
      { key: 'e', startTime: '2026-11-14T10:00:00.000Z' },
    ];
    let who: Tenant;
    const ids: Record<string, string> = {};
    /** The ids of `keys`, newest first (the fixture's startTimes grow with the key). */
    const newestFirst = (keys: string) => [...keys].reverse().map((k) => ids[k]);

    beforeAll(async () => {
      who = await t.createTenant();
      for (const { key, ...fields } of ROWS) {
        const body = without(
          sessionBody({ ...fields, email: `${key as string}@filters.example.com` }),
          ...['qualificationStatus', 'buyingIntent', 'bookedStatus'].filter((f) => !(f in fields)),
        );
        ids[key as string] = (await seed(who, body)).id;
      }
    });

    it.each<[Query, string]>([
      [{}, 'abcde'],
      [{ qualification_status: 'qualified' }, 'ac'],
      [{ qualification_status: 'unqualified' }, 'b'],
      [{ qualification_status: 'qualified,unqualified' }, 'abc'],
      [{ qualification_status: 'unqualified,' }, 'b'],
      [{ buying_intent: 'high' }, 'a'],
      [{ buying_intent: 'medium' }, 'b'],
      [{ buying_intent: 'low' }, 'c'],
      [{ buying_intent: 'none' }, 'd'],
      [{ buying_intent: 'high,none' }, 'ad'],
      [{ buying_intent: 'none,low,medium,high' }, 'abcd'],
      [{ booked_status: 'booked' }, 'ad'],
      [{ booked_status: 'not_booked' }, 'bc'],
      [{ booked_status: 'booked,not_booked' }, 'abcd'],
      [{ qualification_status: 'qualified', booked_status: 'not_booked' }, 'c'],
      [{ buying_intent: 'high,medium', qualification_status: 'unqualified' }, 'b'],
      [{ buying_intent: 'high', booked_status: 'not_booked' }, ''],
      [{ start_time_from: '2026-11-12T10:00:00.000Z' }, 'cde'],
      [{ start_time_from: '2026-11-12T10:00:00.001Z' }, 'de'],
      [{ start_time_to: '2026-11-12T10:00:00.000Z' }, 'abc'],
      [{ start_time_to: '2026-11-12T09:59:59.999Z' }, 'ab'],
      [{ start_time_from: '2026-11-12T10:00:00Z', start_time_to: '2026-11-12T10:00:00Z' }, 'c'],
      [{ start_time_from: '2026-11-11T00:00:00Z', start_time_to: '2026-11-13T23:59:59Z' }, 'bcd'],
      [{ start_time_from: '2026-11-12T10:00:00' }, 'cde'],
      [{ start_time_from: '2026-11-12T12:00:00+02:00' }, 'cde'],
      [{ start_time_to: '2026-11-12T05:00:00-05:00' }, 'abc'],
      [{ start_time_from: '2026-11-14T00:00:00Z', start_time_to: '2026-11-10T00:00:00Z' }, ''],
      [{ start_time_from: '2026-11-11T10:00:00Z', buying_intent: 'low,none', booked_status: 'booked' }, 'd'],
    ])('%j → %s', async (query, keys) => {
      const page = await listOk(who, query);
      expect(page.sessions.map((s) => s.id)).toEqual(newestFirst(keys));
      expect(page.pagination).toEqual({ total: keys.length, limit: 50, offset: 0, nextCursor: null });
    });

    it.each<[string, string, string[]]>([
      ['qualification_status', 'maybe', ['qualified', 'unqualified']],
      ['qualification_status', 'qualified,maybe', ['qualified', 'unqualified']],
      ['buying_intent', 'huge', ['high', 'medium', 'low', 'none']],
      ['buying_intent', 'high,Medium', ['high', 'medium', 'low', 'none']],
      ['booked_status', 'yes', ['booked', 'not_booked']],
    ])('%s=%s → 422 enum at ["query", name] with the raw string', async (name, value, values) => {
      const res = await list(who, { [name]: value }).expect(422);
      expect(res.body).toEqual({ detail: [queryEnumIssue(name, value, values)] });
    });

    it.each(['start_time_from', 'start_time_to'])('%s=yesterday → 422 datetime_from_date_parsing', async (name) => {
      const res = await list(who, { [name]: 'yesterday' }).expect(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'datetime_from_date_parsing',
            loc: ['query', name],
            msg: 'Input should be a valid datetime or date, input is too short',
            input: 'yesterday',
            ctx: { error: 'input is too short' },
          },
        ],
      });
    });
  });

  describe('email filter', () => {
    const EMAILS: Record<string, string | null> = {
      ada: 'ada.lovelace@acme.com',
      grace: 'Grace.Hopper@Navy.mil',
      underscore: 'a_b@corp.io',
      plain: 'axb@corp.io',
      percent: 'a%b@corp.io',
      none: null,
    };
    let who: Tenant;
    const ids: Record<string, string> = {};
    /** Fixture keys in the order the list returns them (each row starts a day later than the one before). */
    const ORDER = Object.keys(EMAILS).reverse();
    const expectedIds = (keys: string[]) => ORDER.filter((k) => keys.includes(k)).map((k) => ids[k]);

    beforeAll(async () => {
      who = await t.createTenant();
      for (const [index, [key, email]] of Object.entries(EMAILS).entries()) {
        const startTime = `2026-11-0${index + 1}T10:00:00.000Z`;
        ids[key] = (
          await seed(
            who,
            email === null ? without(sessionBody({ startTime }), 'email') : sessionBody({ startTime, email }),
          )
        ).id;
      }
    });

    it.each<[string, string[]]>([
      ['ACME', ['ada']],
      ['lovelace@ac', ['ada']],
      ['grace.hopper@navy.mil', ['grace']],
      ['HOPPER@NAVY', ['grace']],
      ['a_b', ['underscore']],
      ['_', ['underscore']],
      ['%', ['percent']],
      ['a%b@', ['percent']],
      ['corp.IO', ['underscore', 'plain', 'percent']],
      ['@', ['ada', 'grace', 'underscore', 'plain', 'percent']],
      ['nobody', []],
    ])('email=%s', async (email, keys) => {
      const page = await listOk(who, { email });
      expect(page.sessions.map((s) => s.id)).toEqual(expectedIds(keys));
      expect(page.pagination.total).toBe(keys.length);
    });

    it('an email filter longer than 255 characters is a 422', async () => {
      const email = `${'x'.repeat(250)}@corp.io`;
      const res = await list(who, { email }).expect(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'string_too_long',
            loc: ['query', 'email'],
            msg: 'String should have at most 255 characters',
            input: email,
            ctx: { max_length: 255 },
          },
        ],
      });
    });
  });

  describe('pagination', () => {
    let who: Tenant;
    /** Newest first. */
    let all: string[] = [];

    beforeAll(async () => {
      who = await t.createTenant();
      const created: string[] = [];
      for (let day = 1; day <= 5; day++) {
        created.push(
          (
            await seed(
              who,
              sessionBody({ startTime: `2026-11-0${day}T10:00:00.000Z`, buyingIntent: day % 2 ? 'high' : 'low' }),
            )
          ).id,
        );
      }
      all = created.reverse();
    });

    it.each<[Query, number, number, [number, number]]>([
      [{}, 50, 0, [0, 5]],
      [{ limit: 2 }, 2, 0, [0, 2]],
      [{ limit: 2, offset: 2 }, 2, 2, [2, 4]],
      [{ limit: 2, offset: 4 }, 2, 4, [4, 5]],
      [{ offset: 5 }, 50, 5, [5, 5]],
      [{ limit: 1, offset: 3 }, 1, 3, [3, 4]],
      [{ limit: 200 }, 200, 0, [0, 5]],
      [{ offset: 1000000 }, 50, 1000000, [5, 5]],
    ])('%j', async (query, limit, offset, [from, to]) => {
      expect(await listOk(who, query)).toEqual({
        sessions: all.slice(from, to).map((id) => expect.objectContaining({ id })),
        pagination: { total: 5, limit, offset, nextCursor: to < 5 ? expect.any(String) : null },
      });
    });

    it('total counts the filtered sessions', async () => {
      expect(await listOk(who, { buying_intent: 'high', limit: 1, offset: 1 })).toEqual({
        sessions: [expect.objectContaining({ id: all[2] })],
        pagination: { total: 3, limit: 1, offset: 1, nextCursor: expect.any(String) },
      });
    });

    it.each<[Query, Json]>([
      [
        { limit: 0 },
        {
          type: 'greater_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
      ],
      [
        { limit: 201 },
        {
          type: 'less_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be less than or equal to 200',
          input: '201',
          ctx: { le: 200 },
        },
      ],
      [
        { offset: -1 },
        {
          type: 'greater_than_equal',
          loc: ['query', 'offset'],
          msg: 'Input should be greater than or equal to 0',
          input: '-1',
          ctx: { ge: 0 },
        },
      ],
      [
        { offset: 1000001 },
        {
          type: 'less_than_equal',
          loc: ['query', 'offset'],
          msg: 'Input should be less than or equal to 1000000',
          input: '1000001',
          ctx: { le: 1000000 },
        },
      ],
      [
        { limit: 'ten' },
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'ten',
        },
      ],
    ])('%j → 422', async (query, issue) => {
      expect((await list(who, query).expect(422)).body).toEqual({ detail: [issue] });
    });
  });
});
