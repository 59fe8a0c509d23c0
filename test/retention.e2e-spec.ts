import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { withSessionLock } from '../src/common/database/advisory-locks';
import { EventFold } from '../src/modules/engagement/event-fold.service';
import { RetentionService, type RetentionCounts } from '../src/modules/retention';
import type {
  Account,
  AccountPage,
  Analytics,
  Link,
  LinkEventPage,
  PeoplePage,
  Retention,
  SessionPage,
  SessionReferencePage,
  ValidationErrorAnswer,
} from './support/api-types';
import { folded } from './support/fold';
import { createLinks } from './support/links';
import { ingest, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * Issue 34 point 5, docs/api.md §6.10: the retention setting (GET/PUT, scopes, 422s) and the run.
 * A run deletes exactly what is older than each period, for the organization it runs for and no
 * other; what remains reads as a recount: an organization given only the surviving data ("the
 * mirror") answers the same people, accounts, link engagement and analytics.
 */
jest.setTimeout(180_000);

const SETTING = '/api/v1/settings/retention';
const DAY_MS = 86_400_000;
/** One instant for every organization's data, so that the mirror's times equal the subject's. */
const NOW = Date.now();
const ago = (days: number) => new Date(NOW - days * DAY_MS).toISOString();
const KEEP_ALL = { transcriptDays: null, sessionDays: null, eventDays: null };
const POLICY = { transcriptDays: 10, sessionDays: 30, eventDays: 60 };
const ENTRIES = [{ speaker: 'prospect', text: 'We need SSO.', timestamp: null, sequenceNumber: 1 }];

/** Fields that differ between two organizations holding the same data (ids, and instants of computation). */
const UNCOMPARABLE = new Set(['id', 'personId', 'updatedAt', 'intentScore', 'intentCalculatedAt', 'asOf']);
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !UNCOMPARABLE.has(key))
      .map(([key, inner]) => [key, comparable(inner)]),
  );
}

describe('retention', () => {
  let t: TestApp;
  let db: DataSource;
  let retention: RetentionService;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all', RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' });
    db = t.app.get(DataSource);
    retention = t.app.get(RetentionService);
  });
  afterAll(() => t.close());

  const get = (path: string, key: string) => request(t.server).get(path).set('x-api-key', key);
  const put = (body: object, key: string) => request(t.server).put(SETTING).set('x-api-key', key).send(body);

  describe('the setting', () => {
    let who: Tenant;
    beforeAll(async () => {
      who = await t.createTenant();
    });

    it('is all null (keep everything) until set, then replaced whole by PUT, which answers it', async () => {
      expect((await get(SETTING, who.key).expect(200)).body).toEqual({ ...KEEP_ALL, updatedAt: null });
      const first = (await put({ transcriptDays: 1, sessionDays: 3650, eventDays: null }, who.key).expect(200))
        .body as Retention;
      expect(first).toEqual({ transcriptDays: 1, sessionDays: 3650, eventDays: null, updatedAt: expect.any(String) });
      expect((await get(SETTING, who.key).expect(200)).body).toEqual(first);
      await put({ transcriptDays: null, sessionDays: null, eventDays: 90 }, who.key).expect(200);
      expect((await get(SETTING, who.key).expect(200)).body).toMatchObject({ ...KEEP_ALL, eventDays: 90 });
    });

    it('needs settings:read to read and settings:write to change', async () => {
      const reader = await t.createKey(who.organizationId, ['settings:read']);
      const writer = await t.createKey(who.organizationId, ['settings:write']);
      const other = await t.createKey(who.organizationId, ['sessions:read', 'analytics:read']);
      await get(SETTING, reader).expect(200);
      await get(SETTING, writer).expect(200);
      await put(KEEP_ALL, reader).expect(403);
      await get(SETTING, other).expect(403);
      await put(KEEP_ALL, other).expect(403);
      await put(KEEP_ALL, writer).expect(200);
    });

    it.each([
      ['zero days', { transcriptDays: 0 }, 'transcriptDays', 'greater_than_equal'],
      ['more than ten years', { sessionDays: 3651 }, 'sessionDays', 'less_than_equal'],
      ['a fraction', { eventDays: 1.5 }, 'eventDays', 'int_from_float'],
      ['a string', { eventDays: 'thirty' }, 'eventDays', 'int_parsing'],
      ['a boolean', { transcriptDays: true }, 'transcriptDays', 'int_type'],
      ['a missing period', { sessionDays: undefined }, 'sessionDays', 'missing'],
    ])('refuses %s with a 422 at its loc and changes nothing', async (_, change, field, type) => {
      await put({ transcriptDays: 7, sessionDays: 8, eventDays: 9 }, who.key).expect(200);
      const before = (await get(SETTING, who.key).expect(200)).body as Retention;
      const res = await put({ transcriptDays: 7, sessionDays: 8, eventDays: 9, ...change }, who.key).expect(422);
      const issues = (res.body as ValidationErrorAnswer).detail;
      expect(issues.map((issue) => ({ type: issue.type, loc: issue.loc }))).toEqual([{ type, loc: ['body', field] }]);
      expect((await get(SETTING, who.key).expect(200)).body).toEqual(before);
    });

    it('gives the bounds in ctx, pydantic-style', async () => {
      const res = await put({ ...KEEP_ALL, transcriptDays: 0 }, who.key).expect(422);
      expect((res.body as ValidationErrorAnswer).detail).toEqual([
        {
          type: 'greater_than_equal',
          loc: ['body', 'transcriptDays'],
          msg: 'Input should be greater than or equal to 1',
          input: 0,
          ctx: { ge: 1 },
        },
      ]);
    });
  });

  describe('a run', () => {
    /** The organization the run is for, one with the same data and setting it must not touch, and the mirror. */
    let subject: Tenant;
    let bystander: Tenant;
    let mirror: Tenant;
    const ids = {
      recent: randomUUID(), // 5 days: kept with its transcript
      middle: randomUUID(), // 20 days: kept, its transcript deleted
      old: randomUUID(), // 40 days: deleted (Ada keeps her other sessions)
      bob: randomUUID(), // 45 days: Bob's only session; Bob goes, acme.com keeps Ada
      carol: randomUUID(), // 50 days: globex.com's only person
    };
    const links = new Map<string, Link>();
    /** The session ids each organization ingested, by role (the mirror ingests the survivors only). */
    const sessionsOf = new Map<string, Record<string, string>>();

    const sessionsFor = (kept: boolean) => [
      { role: 'recent', start: 5, email: 'ada@acme.com', transcript: true },
      { role: 'middle', start: 20, email: 'ada@acme.com', transcript: true },
      ...(kept
        ? []
        : [
            { role: 'old', start: 40, email: 'ada@acme.com', transcript: true },
            { role: 'bob', start: 45, email: 'bob@acme.com', transcript: false },
            { role: 'carol', start: 50, email: 'carol@globex.com', transcript: false },
          ]),
    ];

    /** Sessions, a link and events as the organization's own: the mirror gets what a run leaves only. */
    const populate = async (tenant: Tenant, survivorsOnly: boolean) => {
      const roles: Record<string, string> = {};
      for (const session of sessionsFor(survivorsOnly)) {
        const id = survivorsOnly ? randomUUID() : ids[session.role as keyof typeof ids];
        roles[session.role] = id;
        const start = ago(session.start);
        const body = sessionBody({
          startTime: start,
          endTime: new Date(Date.parse(start) + 600_000).toISOString(),
          qualificationAssessedAt: start,
          email: session.email,
          ...(session.transcript ? { transcript: { entries: ENTRIES } } : {}),
        });
        await ingest(t.server, tenant.key, id, body).expect(200);
      }
      sessionsOf.set(tenant.organizationId, roles);
      const [link] = await createLinks(t.server, tenant.key, [{ firstName: 'Ada', email: 'ada@acme.com' }]);
      links.set(tenant.organizationId, link);
      const event = (type: string, days: number, extra: object) => ({
        eventId: `${type}-${days}-${tenant.organizationId}`,
        type,
        customLinkId: link.id,
        occurredAt: ago(days),
        ...extra,
      });
      const events = [
        event('page_view', 3, { visitorId: 'v-new', pageViewId: 'pv-1', sessionId: roles.recent }),
        event('session_started', 5, { sessionId: roles.recent }),
        // Within eventDays, of a session sessionDays deletes: the event stays, the reference goes.
        event('session_engaged', 40, { sessionId: survivorsOnly ? randomUUID() : roles.old }),
        ...(survivorsOnly
          ? []
          : [
              event('open', 70, { visitorId: 'v-old' }),
              event('page_view', 70, { visitorId: 'v-old', pageViewId: 'pv-0' }),
              event('meeting_booked', 90, { sessionId: roles.bob }),
            ]),
      ];
      await request(t.server).post('/api/v1/events').set('x-api-key', tenant.key).send({ events }).expect(202);
      await folded(t.app, tenant.organizationId);
    };

    const state = async (tenant: Tenant) => {
      const link = links.get(tenant.organizationId) as Link;
      const linkPath = `/api/v1/custom-links/${link.id}`;
      const analytics = `/api/v1/analytics?metrics=opens,loads,visitors,sessions,engagedSessions,meetingsBooked&group_by=time&interval=day&from=${ago(100).slice(0, 10)}&to=${ago(-1).slice(0, 10)}`;
      return {
        sessions: ((await get('/api/v1/sessions?limit=100', tenant.key).expect(200)).body as SessionPage).sessions,
        people: ((await get('/api/v1/people?limit=100', tenant.key).expect(200)).body as PeoplePage).people,
        accounts: ((await get('/api/v1/accounts?limit=100', tenant.key).expect(200)).body as AccountPage).accounts,
        engagement: ((await get(linkPath, tenant.key).expect(200)).body as Link).engagement,
        events: (
          (await get(`${linkPath}/events?limit=100&include_bots=true`, tenant.key).expect(200)).body as LinkEventPage
        ).events,
        references: (await get(`${linkPath}/sessions?limit=100`, tenant.key).expect(200)).body as SessionReferencePage,
        analytics: (await get(analytics, tenant.key).expect(200)).body as Analytics,
      };
    };

    let before: Awaited<ReturnType<typeof state>>;
    let bystanderBefore: Awaited<ReturnType<typeof state>>;
    let bystanderAfter: Awaited<ReturnType<typeof state>>;
    let counts: RetentionCounts;

    /**
     * The subject's run, its setting holding periods only meanwhile: the specs share the run's
     * database, and a run for every organization (another spec's `retention:run`) must not take
     * this one's work (nor find it busy).
     */
    const runSubject = async () => {
      await put(POLICY, subject.key).expect(200);
      try {
        return await retention.run(subject.organizationId);
      } finally {
        await put(KEEP_ALL, subject.key).expect(200);
      }
    };

    beforeAll(async () => {
      [subject, bystander, mirror] = await Promise.all([t.createTenant(), t.createTenant(), t.createTenant()]);
      await populate(subject, false);
      // The bystander's ids are its own (a session id belongs to one organization).
      for (const key of Object.keys(ids) as (keyof typeof ids)[]) ids[key] = randomUUID();
      await populate(bystander, false);
      await populate(mirror, true);
      before = await state(subject);
      // The bystander has the subject's setting while the subject runs; its lock held here keeps any
      // other spec's run for every organization off it.
      await withSessionLock(db, `retention:${bystander.organizationId}`, async () => {
        await put(POLICY, bystander.key).expect(200);
        bystanderBefore = await state(bystander);
        counts = await runSubject();
        bystanderAfter = await state(bystander);
        await put(KEEP_ALL, bystander.key).expect(200);
      });
    });

    it('counts what it deleted', () => {
      expect(counts).toEqual({
        organizationId: subject.organizationId,
        busy: false,
        transcripts: 2, // the middle and the old session's (transcripts expire before sessions do)
        sessions: 3,
        sessionReferences: 1, // the old session's (Bob's came from an expired event: the refold left it out)
        events: 3,
        partitions: expect.any(Number),
      });
    });

    it('deletes the sessions older than sessionDays and the transcripts older than transcriptDays, nothing newer', async () => {
      const roles = sessionsOf.get(subject.organizationId) as Record<string, string>;
      expect(before.sessions).toHaveLength(5);
      const after = await state(subject);
      expect(after.sessions.map((s) => s.id).sort()).toEqual([roles.recent, roles.middle].sort());
      for (const gone of [roles.old, roles.bob, roles.carol])
        await get(`/api/v1/sessions/${gone}`, subject.key).expect(404);
      await get(`/api/v1/sessions/${roles.recent}/transcript`, subject.key).expect(200);
      await get(`/api/v1/sessions/${roles.middle}/transcript`, subject.key).expect(404);
      const [{ transcripts }]: { transcripts: number }[] = await db.query(
        `SELECT count(*)::int AS transcripts FROM session_transcripts WHERE organization_id = $1`,
        [subject.organizationId],
      );
      expect(transcripts).toBe(1);
    });

    it('deletes the events older than eventDays, nothing newer, and the references of deleted sessions', async () => {
      const after = await state(subject);
      expect(before.events).toHaveLength(6);
      expect(after.events.map((e) => e.type).sort()).toEqual(['page_view', 'session_engaged', 'session_started']);
      expect(after.events.every((e) => Date.parse(e.occurredAt) >= Date.now() - 60 * DAY_MS)).toBe(true);
      const roles = sessionsOf.get(subject.organizationId) as Record<string, string>;
      expect(after.references.sessions.map((r) => r.sessionId)).toEqual([roles.recent]);
    });

    it('leaves people, accounts, link engagement and analytics equal to a recount of what remains', async () => {
      const [after, recount] = await Promise.all([state(subject), state(mirror)]);
      expect(comparable(after.people)).toEqual(comparable(recount.people));
      expect(after.people.map((p) => p.email)).toEqual(['ada@acme.com']);
      expect(after.people[0].totalSessions).toBe(2);
      expect(comparable(after.accounts)).toEqual(comparable(recount.accounts));
      expect(after.accounts.map((a: Account) => a.accountDomain)).toEqual(['acme.com']);
      expect(comparable(after.engagement)).toEqual(comparable(recount.engagement));
      expect(after.engagement.uniqueVisitorCount).toBe(1);
      expect(comparable(after.analytics)).toEqual(comparable(recount.analytics));
      expect(after.analytics.totals).toMatchObject({ opens: 0, loads: 1, meetingsBooked: 0 });
      expect(before.analytics.totals).toMatchObject({ opens: 1, loads: 2, meetingsBooked: 1 });
    });

    it('touches no other organization, even one with the same setting', async () => {
      expect(bystanderAfter).toEqual({
        ...bystanderBefore,
        engagement: { ...bystanderBefore.engagement, asOf: expect.any(String) },
        analytics: { ...bystanderBefore.analytics, asOf: expect.any(String) },
      });
    });

    it('keeps an expired eventId: sent again, it is a duplicate and counts nowhere', async () => {
      const link = links.get(subject.organizationId) as Link;
      const expired = {
        eventId: `open-70-${subject.organizationId}`,
        type: 'open',
        customLinkId: link.id,
        occurredAt: ago(70),
        visitorId: 'v-old',
      };
      const res = await request(t.server)
        .post('/api/v1/events')
        .set('x-api-key', subject.key)
        .send({ events: [expired] })
        .expect(202);
      expect(res.body).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
    });

    it('is idempotent: a second run deletes nothing and changes nothing', async () => {
      const first = await state(subject);
      const again = await runSubject();
      expect(again).toEqual({ ...counts, transcripts: 0, sessions: 0, sessionReferences: 0, events: 0, partitions: 0 });
      expect(comparable(await state(subject))).toEqual(comparable(first));
    });

    it('removes again the references a later refold derives for deleted sessions', async () => {
      await t.app.get(EventFold).refold(subject.organizationId);
      await folded(t.app, subject.organizationId);
      const link = links.get(subject.organizationId) as Link;
      const references = async () =>
        ((await get(`/api/v1/custom-links/${link.id}/sessions`, subject.key).expect(200)).body as SessionReferencePage)
          .total;
      expect(await references()).toBe(2);
      expect((await runSubject()).sessionReferences).toBe(1);
      expect(await references()).toBe(1);
    });

    it('skips an organization another run holds, deleting nothing', async () => {
      const held = await withSessionLock(db, `retention:${subject.organizationId}`, () =>
        retention.run(subject.organizationId),
      );
      expect(held).toMatchObject({ busy: true, sessions: 0, events: 0 });
    });

    it('drops past log partitions that hold no row, never a partition with rows or of this month on', async () => {
      const stranger = randomUUID();
      await db.query(
        `CREATE TABLE link_events_200001 PARTITION OF link_events FOR VALUES FROM ('2000-01-01T00:00:00Z') TO ('2000-02-01T00:00:00Z')`,
      );
      await db.query(
        `CREATE TABLE link_events_200003 PARTITION OF link_events FOR VALUES FROM ('2000-03-01T00:00:00Z') TO ('2000-04-01T00:00:00Z')`,
      );
      try {
        // A row of another organization, received then: its month stays.
        await db.query(
          `INSERT INTO link_events (organization_id, received_at, batch_id, event_id, custom_link_id, type, occurred_at, bot)
           VALUES ($1, '2000-03-15T00:00:00Z', $2, 'e-2000', $3, 'open', '2000-03-15T00:00:00Z', false)`,
          [stranger, randomUUID(), randomUUID()],
        );
        const partitions = async () =>
          (
            await db.query<{ name: string }[]>(
              `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'link_events'::regclass ORDER BY 1`,
            )
          ).map((row) => row.name);
        const present = await partitions();
        const run = await runSubject();
        expect(run.partitions).toBeGreaterThanOrEqual(1);
        const left = await partitions();
        expect(left).not.toContain('link_events_200001');
        expect(left).toContain('link_events_200003');
        expect(left).toContain('link_events_default');
        const thisMonth = `link_events_${new Date().toISOString().slice(0, 7).replace('-', '')}`;
        expect(left).toContain(thisMonth);
        expect(present.filter((name) => name >= thisMonth && name !== 'link_events_default')).toEqual(
          left.filter((name) => name >= thisMonth && name !== 'link_events_default'),
        );
      } finally {
        await db.query(`DROP TABLE IF EXISTS link_events_200001, link_events_200003`);
      }
    });
  });
});
