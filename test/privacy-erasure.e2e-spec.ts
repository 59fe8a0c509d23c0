import { randomBytes, randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import Redis from 'ioredis';
import { TEST_REDIS_URL } from './support/test-env';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { LinkErasure } from '../src/modules/custom-links';
import { ErasureRunner } from '../src/modules/privacy/jobs/erasure-runner.service';
import { PrivacyRepository } from '../src/modules/privacy/privacy.repository';
import type {
  Erasure,
  ErasurePage,
  Export,
  Link,
  LinkEventPage,
  SessionDetail,
  ValidationErrorAnswer,
  WebhookEndpointWithSecret,
} from './support/api-types';
import { folded } from './support/fold';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { dumpContaining } from './support/pg-dump';
import { startReceiver } from './support/webhook-receiver';
import { createLinks } from './support/links';
import { ingest, sessionBody } from './support/sessions';
import { createTestApp, eventually, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * Issue 34 points 1, 2 and 4, docs/api.md §18.1, §18.2: erasure requests (shape, scopes, 422s, 404s,
 * list), and the proof that an erasure leaves nothing of the person: after a scenario touching
 * every feature (sessions with transcripts, links with rendered cards, events, exports, webhooks,
 * idempotent requests), a full `pg_dump --data-only` of the database and every Redis key and value
 * hold none of the person's email, name or phone, in any case, while another person's data is whole.
 */
jest.setTimeout(240_000);

const ERASURES = '/api/v1/privacy/erasures';
const RUN = randomBytes(4).toString('hex');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NOT_FOUND = { detail: "Erasure not found for the key's organization." };
const FAST = { RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' };

/** The person erased: values found nowhere else (letters and hex only). */
const ERIN = {
  first: `Erinzq${RUN}`,
  last: `Vanishzq${RUN}`,
  email: `erin.zq${RUN}@erased-${RUN}.example`,
  phone: `+1 (555) 7${RUN.replace(/\D/g, '0').slice(0, 3)}-${RUN.replace(/\D/g, '1').slice(0, 4)}`,
};
/** The person kept, in the same organization. */
const KATE = {
  first: `Katezq${RUN}`,
  last: `Keptzq${RUN}`,
  email: `kate.zq${RUN}@kept-${RUN}.example`,
  phone: `+1 555 8${RUN.replace(/\D/g, '2').slice(0, 6)}`,
};
const digits = (phone: string) => phone.replace(/\D/g, '');
/** What must be gone, as it would appear in any text: each value, case-insensitively, and the phone as digits. */
const erinTraces = () => [ERIN.first, ERIN.last, ERIN.email, ERIN.phone, digits(ERIN.phone)];

/** Every key of the Redis database and its value, as text, whatever its type. */
async function redisDump(url: string): Promise<string> {
  const redis = new Redis(url);
  const parts: string[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        parts.push(key);
        const type = await redis.type(key);
        if (type === 'string') parts.push((await redis.get(key)) ?? '');
        else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
        else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
        else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return parts.join('\n');
}

/** Which of `values` occur in `text`, case-insensitively. */
const found = (text: string, values: string[]) =>
  values.filter((value) => text.toLowerCase().includes(value.toLowerCase()));

describe('privacy erasures', () => {
  let t: TestApp;
  let db: DataSource;
  let isolated: IsolatedServices;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    // Its webhooks go to a local receiver, and its dump is of its own database (isolated-database.ts).
    isolated = await isolatedServices('privacy');
    t = await createTestApp({
      ...isolated.env,
      APP_ROLE: 'all',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_DISPATCH_INTERVAL_MS: '50',
      ...FAST,
    });
    db = t.app.get(DataSource);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
    await isolated.drop();
  });

  const auth = (req: request.Test, key: string) => req.set('x-api-key', key);
  const dumped = (values: string[]) => dumpContaining(isolated.env.DATABASE_URL, values);
  const get = (path: string, key: string) => auth(request(t.server).get(path), key);
  const erase = (body: unknown, key: string) => auth(request(t.server).post(ERASURES), key).send(body as object);
  const completed = (key: string, id: string) =>
    readUntil(
      async () => (await get(`${ERASURES}/${id}`, key).expect(200)).body as Erasure,
      (erasure) => erasure.status === 'completed' || erasure.status === 'failed',
      120_000,
    );

  describe('requests', () => {
    let who: Tenant;
    beforeAll(async () => {
      who = await t.createTenant();
    });

    it('answers 202 with Location and the queued erasure, then completes with counts', async () => {
      const res = await erase({ email: `nobody-${RUN}@example.com` }, who.key).expect(202);
      const body = res.body as Erasure;
      expect(body).toEqual({
        id: expect.stringMatching(UUID),
        status: 'queued',
        requestedAt: expect.any(String),
        suppress: false,
        counts: null,
        completedAt: null,
        failureReason: null,
      });
      expect(res.headers.location).toBe(`${ERASURES}/${body.id}`);
      const done = await completed(who.key, body.id);
      expect(done).toEqual({
        ...body,
        status: 'completed',
        completedAt: expect.any(String),
        counts: {
          sessions: 0,
          transcripts: 0,
          people: 0,
          customLinks: 0,
          events: 0,
          exports: 0,
          webhookDeliveries: 0,
          idempotencyRecords: 0,
        },
      });
    });

    it.each([
      ['no identifier', {}, ['body'], 'value_error'],
      ['two identifiers', { email: 'a@b.example', phone: '+1 555 0100' }, ['body'], 'value_error'],
      [
        'three identifiers',
        { email: 'a@b.example', phone: '+1 555 0100', personId: randomUUID() },
        ['body'],
        'value_error',
      ],
      ['a malformed email', { email: 'not-an-email' }, ['body', 'email'], 'value_error'],
      ['a phone of too few digits', { phone: '12-34' }, ['body', 'phone'], 'value_error'],
      ['a personId that is no uuid', { personId: 'p-1' }, ['body', 'personId'], 'uuid_parsing'],
      ['suppression of a phone', { phone: '+1 555 0100', suppress: true }, ['body', 'suppress'], 'value_error'],
      [
        'a suppress that is no boolean',
        { email: 'a@b.example', suppress: 'yes' },
        ['body', 'suppress'],
        'bool_parsing',
      ],
    ])('refuses %s with a 422 at its loc and records nothing', async (_, body, loc, type) => {
      const before = ((await get(ERASURES, who.key).expect(200)).body as ErasurePage).erasures.length;
      const res = await erase(body, who.key).expect(422);
      const issues = (res.body as ValidationErrorAnswer).detail;
      expect(issues.map((issue) => ({ loc: issue.loc, type: issue.type }))).toEqual([{ loc, type }]);
      expect(((await get(ERASURES, who.key).expect(200)).body as ErasurePage).erasures).toHaveLength(before);
    });

    it("frees an erased session's id: another organization may use it then, and not before (session_ids)", async () => {
      const other = await t.createTenant();
      const [email, id] = [`freed-${RUN}@example.com`, randomUUID()];
      await ingest(t.server, who.key, id, sessionBody({ email })).expect(200);
      await ingest(t.server, other.key, id, sessionBody()).expect(409);
      const { body } = await erase({ email }, who.key).expect(202);
      expect((await completed(who.key, (body as Erasure).id)).counts).toMatchObject({ sessions: 1 });
      await ingest(t.server, other.key, id, sessionBody()).expect(200);
      await ingest(t.server, who.key, id, sessionBody({ email })).expect(409);
    });

    it('says which identifiers it wants', async () => {
      const res = await erase({}, who.key).expect(422);
      expect((res.body as ValidationErrorAnswer).detail[0].msg).toBe(
        'Value error, exactly one of email, personId or phone is required',
      );
    });

    it('needs privacy:write to request and privacy:read or privacy:write to read', async () => {
      const reader = await t.createKey(who.organizationId, ['privacy:read']);
      const writer = await t.createKey(who.organizationId, ['privacy:write']);
      const other = await t.createKey(who.organizationId, ['sessions:read', 'sessions:write', 'settings:write']);
      const id = ((await erase({ phone: '+1 555 0199 22' }, writer).expect(202)).body as Erasure).id;
      await erase({ phone: '+1 555 0199 22' }, reader).expect(403);
      await erase({ phone: '+1 555 0199 22' }, other).expect(403);
      await get(`${ERASURES}/${id}`, reader).expect(200);
      await get(ERASURES, reader).expect(200);
      await get(`${ERASURES}/${id}`, other).expect(403);
      await get(ERASURES, other).expect(403);
      await erase({}, other).expect(403);
      await auth(request(t.server).post(ERASURES), 'sk_live_not_a_key').send({}).expect(401);
    });

    it("answers 404 for an unknown erasure and for another organization's", async () => {
      const stranger = await t.createTenant();
      const id = ((await erase({ phone: '+44 20 7946 0000' }, who.key).expect(202)).body as Erasure).id;
      expect((await get(`${ERASURES}/${id}`, stranger.key).expect(404)).body).toEqual(NOT_FOUND);
      expect((await get(`${ERASURES}/${randomUUID()}`, who.key).expect(404)).body).toEqual(NOT_FOUND);
      expect(((await get(ERASURES, stranger.key).expect(200)).body as ErasurePage).erasures).toEqual([]);
    });

    it('replays an Idempotency-Key with the same answer and one erasure', async () => {
      const key = randomUUID();
      const body = { email: `again-${RUN}@example.com` };
      const first = await erase(body, who.key).set('Idempotency-Key', key).expect(202);
      const again = await erase(body, who.key).set('Idempotency-Key', key).expect(202);
      expect(again.body).toEqual(first.body);
      expect(again.headers.location).toBe(first.headers.location);
    });

    it('lists newest first, paged by a signed cursor', async () => {
      const lister = await t.createTenant();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(((await erase({ email: `list${i}-${RUN}@example.com` }, lister.key).expect(202)).body as Erasure).id);
      const first = (await get(`${ERASURES}?limit=2`, lister.key).expect(200)).body as ErasurePage;
      expect(first.limit).toBe(2);
      expect(first.erasures.map((erasure) => erasure.id)).toEqual([ids[2], ids[1]]);
      const second = (
        await get(`${ERASURES}?limit=2&cursor=${encodeURIComponent(first.nextCursor as string)}`, lister.key).expect(
          200,
        )
      ).body as ErasurePage;
      expect(second.erasures.map((erasure) => erasure.id)).toEqual([ids[0]]);
      expect(second.nextCursor).toBeNull();
      const forged = `${(first.nextCursor as string).split('.')[0]}.x`;
      await get(`${ERASURES}?cursor=${encodeURIComponent(forged)}`, lister.key).expect(422);
    });
  });

  describe('erased everywhere, provably', () => {
    let who: Tenant;
    let endpoint: WebhookEndpointWithSecret;
    let erinLink: Link;
    let kateLink: Link;
    let erinCard: string;
    let erasure: Erasure;
    const erinSessions = [randomUUID(), randomUUID()];
    const kateSession = randomUUID();

    const transcriptOf = (person: typeof ERIN) => ({
      entries: [
        {
          speaker: 'prospect',
          text: `Hi, ${person.first} here, call me on ${person.phone}.`,
          timestamp: null,
          sequenceNumber: 1,
        },
      ],
    });
    const bodyOf = (person: typeof ERIN, start: string) =>
      sessionBody({
        email: person.email,
        name: `${person.first} ${person.last}`,
        phone: person.phone,
        business: `Business of ${person.last}`,
        summaryMarkdown: `**${person.first}** evaluated the product.`,
        startTime: start,
        endTime: new Date(Date.parse(start) + 600_000).toISOString(),
        qualificationAssessedAt: start,
        transcript: transcriptOf(person),
      });

    beforeAll(async () => {
      who = await t.createTenant();
      endpoint = (
        await auth(request(t.server).post('/api/v1/webhook-endpoints'), who.key)
          .send({
            url: receiver.url,
            eventTypes: ['session.analyzed', 'custom_link.opened', 'custom_link_job.finished', 'person.erased'],
          })
          .expect(201)
      ).body as WebhookEndpointWithSecret;

      // Sessions with transcripts, ingested with Idempotency-Keys (their stored answers name them).
      for (const [i, id] of erinSessions.entries())
        await ingest(t.server, who.key, id, bodyOf(ERIN, `2026-11-2${i}T10:00:00.000Z`))
          .set('Idempotency-Key', randomUUID())
          .expect(200);
      await ingest(t.server, who.key, kateSession, bodyOf(KATE, '2026-11-22T10:00:00.000Z'))
        .set('Idempotency-Key', randomUUID())
        .expect(200);

      // Links personalized for each, their cards rendered by the worker.
      [erinLink, kateLink] = await createLinks(
        t.server,
        who.key,
        [ERIN, KATE].map((person) => ({
          firstName: person.first,
          lastName: person.last,
          email: person.email.toUpperCase(),
          phone: person.phone,
          role: 'CTO',
          company: `Company of ${person.last}`,
          context: `Met ${person.first} at the fair`,
          shareTitle: `A demo for ${person.first}`,
          shareThumbnailUrl: null,
        })),
      );
      const rendered = await Promise.all(
        [erinLink, kateLink].map((link) =>
          readUntil(
            async () => (await get(`/api/v1/custom-links/${link.id}`, who.key).expect(200)).body as Link,
            (read) => read.thumbnailStatus === 'generated' || read.thumbnailStatus === 'fallback',
            60_000,
          ),
        ),
      );
      [erinLink, kateLink] = rendered;
      erinCard = erinLink.shareThumbnailUrl as string;
      expect(erinCard).toMatch(/\.png$/);

      // Events with visitor and session ids, folded.
      const event = (link: Link, n: number, extra: object) => ({
        eventId: `evt-${n}-${link.id}`,
        customLinkId: link.id,
        occurredAt: `2026-11-2${n}T12:00:00.000Z`,
        ...extra,
      });
      await auth(request(t.server).post('/api/v1/events'), who.key)
        .send({
          events: [
            event(erinLink, 1, { type: 'open', visitorId: `v-erin-${RUN}` }),
            event(erinLink, 2, {
              type: 'page_view',
              visitorId: `v-erin-${RUN}`,
              pageViewId: 'pv-1',
              sessionId: erinSessions[0],
            }),
            event(erinLink, 3, { type: 'session_started', sessionId: erinSessions[0] }),
            event(kateLink, 1, { type: 'open', visitorId: `v-kate-${RUN}` }),
            event(kateLink, 2, { type: 'session_started', sessionId: kateSession }),
          ],
        })
        .expect(202);
      await folded(t.app, who.organizationId, 30_000);

      // Exports of the sessions and the links, and one of Kate's sessions only, completed.
      for (const [resource, filters] of [
        ['sessions', {}],
        ['custom_links', {}],
        ['sessions', { email: KATE.email }],
      ] as const) {
        const created = (
          await auth(request(t.server).post('/api/v1/exports'), who.key)
            .set('Idempotency-Key', randomUUID())
            .send({ resource, format: 'ndjson', filters })
            .expect(202)
        ).body as Export;
        await readUntil(
          async () => (await get(`/api/v1/exports/${created.id}`, who.key).expect(200)).body as Export,
          (row) => row.status === 'completed',
          60_000,
        );
      }
      // The webhooks about them delivered.
      await eventually(
        async () => Promise.resolve(found(receiver.received.map((r) => r.body).join('\n'), [ERIN.email]).length > 0),
        30_000,
      );

      // Before the erasure, the dump does name Erin: the proof below can fail.
      const named = [ERIN.first, ERIN.last, ERIN.email, ERIN.phone];
      expect(await dumped(named)).toEqual(named);

      const requested = (await erase({ email: ERIN.email.toUpperCase(), suppress: true }, who.key).expect(202))
        .body as Erasure;
      erasure = await completed(who.key, requested.id);
    });

    it('completes, counting what it erased', () => {
      expect(erasure.status).toBe('completed');
      expect(erasure.counts).toEqual({
        sessions: 2,
        transcripts: 2,
        people: 1,
        customLinks: 1,
        events: 3, // the open and page view (visitor) and the session start (session) of her link
        exports: 2,
        webhookDeliveries: expect.any(Number),
        idempotencyRecords: expect.any(Number),
      });
      expect(erasure.counts?.webhookDeliveries).toBeGreaterThanOrEqual(2); // session.analyzed of her sessions
      expect(erasure.counts?.idempotencyRecords).toBeGreaterThanOrEqual(2); // her sessions' ingestions
    });

    it('leaves none of her email, name or phone in a pg_dump of the database', async () => {
      expect(await dumped(erinTraces())).toEqual([]);
      expect(await dumped([KATE.first, KATE.last, KATE.email, KATE.phone])).toEqual([
        KATE.first,
        KATE.last,
        KATE.email,
        KATE.phone,
      ]);
    });

    it('leaves none in the export files either (they are stored compressed), and keeps the file without her', async () => {
      const chunks: { export_id: string; data: Buffer }[] = await db.query(
        `SELECT export_id, data FROM export_chunks ORDER BY export_id, run_id, seq`,
      );
      const files = new Map<string, Buffer[]>();
      for (const chunk of chunks) files.set(chunk.export_id, [...(files.get(chunk.export_id) ?? []), chunk.data]);
      expect(files.size).toBe(1);
      const text = gunzipSync(Buffer.concat([...files.values()][0])).toString('utf8');
      expect(found(text, erinTraces())).toEqual([]);
      expect(found(text, [KATE.email])).toEqual([KATE.email]);
    });

    it('leaves none in any Redis key or value', async () => {
      expect(found(await redisDump(TEST_REDIS_URL), erinTraces())).toEqual([]);
    });

    it('deletes her sessions and transcripts, and her person', async () => {
      for (const id of erinSessions) await get(`/api/v1/sessions/${id}`, who.key).expect(404);
      await get(`/api/v1/people?email=${encodeURIComponent(ERIN.email)}`, who.key).expect(200);
      const kate = (await get(`/api/v1/sessions/${kateSession}`, who.key).expect(200)).body as SessionDetail;
      expect(kate).toMatchObject({ email: KATE.email });
    });

    it('empties her link of every prospect field and withdraws its card; her events lose visitor and session ids', async () => {
      const link = (await get(`/api/v1/custom-links/${erinLink.id}`, who.key).expect(200)).body as Link;
      expect(link).toMatchObject({
        firstName: null,
        lastName: null,
        email: null,
        phone: null,
        role: null,
        company: null,
        context: null,
        displayName: 'Custom Link',
        shareTitle: null,
        shareThumbnailUrl: null,
        thumbnailStatus: 'not_requested',
      });
      await request(t.server).get(new URL(erinCard).pathname).expect(404);
      const events = (await get(`/api/v1/custom-links/${erinLink.id}/events?limit=100`, who.key).expect(200))
        .body as LinkEventPage;
      expect(events.events).toHaveLength(3);
      for (const event of events.events) expect(event).toMatchObject({ visitorId: null, sessionId: null });
      const kate = (await get(`/api/v1/custom-links/${kateLink.id}`, who.key).expect(200)).body as Link;
      expect(kate).toMatchObject({
        firstName: KATE.first,
        email: KATE.email.toUpperCase(),
        thumbnailStatus: kateLink.thumbnailStatus,
        shareThumbnailUrl: kateLink.shareThumbnailUrl,
      });
    });

    it('sends person.erased with ids and counts only', async () => {
      const message = await readUntil(
        async () => Promise.resolve(receiver.received.find((r) => r.body.includes('"person.erased"'))),
        (r) => r !== undefined,
        30_000,
      );
      const body = JSON.parse(message?.body as string) as { type: string; data: unknown };
      expect(body).toEqual({
        type: 'person.erased',
        timestamp: expect.any(String),
        data: { erasureId: erasure.id, personId: expect.stringMatching(UUID), counts: erasure.counts },
      });
      expect(found(message?.body as string, erinTraces())).toEqual([]);
      expect(endpoint.eventTypes).toContain('person.erased');
    });

    it('keeps no identifier of her on the erasure itself', async () => {
      const rows: { subject_email: string | null; subject_phone: string | null; subject_person_id: string | null }[] =
        await db.query(`SELECT subject_email, subject_phone, subject_person_id FROM privacy_erasures WHERE id = $1`, [
          erasure.id,
        ]);
      expect(rows).toEqual([{ subject_email: null, subject_phone: null, subject_person_id: null }]);
    });

    it('refuses her email from now on (suppressed), storing nothing', async () => {
      const res = await ingest(t.server, who.key, randomUUID(), sessionBody({ email: ERIN.email }))
        .set('Idempotency-Key', randomUUID())
        .expect(422);
      expect((res.body as ValidationErrorAnswer).detail).toMatchObject([
        { type: 'value_error', loc: ['body', 'email'], msg: 'Value error, this person asked to be erased' },
      ]);
      expect(await dumped([ERIN.email])).toEqual([]);
    });

    it('erases by personId and by phone too', async () => {
      const personId = (
        (
          await ingest(
            t.server,
            who.key,
            randomUUID(),
            bodyOf({ ...KATE, email: `p-${RUN}@x.example` }, '2026-11-25T10:00:00.000Z'),
          ).expect(200)
        ).body as { personId: string }
      ).personId;
      const byId = (await erase({ personId }, who.key).expect(202)).body as Erasure;
      expect((await completed(who.key, byId.id)).counts).toMatchObject({ sessions: 1, people: 1 });
      await get(`/api/v1/people/${personId}`, who.key).expect(404);
      const byPhone = (await erase({ phone: digits(KATE.phone) }, who.key).expect(202)).body as Erasure;
      expect((await completed(who.key, byPhone.id)).counts).toMatchObject({ sessions: 1, customLinks: 1 });
      await get(`/api/v1/sessions/${kateSession}`, who.key).expect(404);
    });
  });

  describe('a run that dies', () => {
    let who: Tenant;
    beforeAll(async () => {
      who = await t.createTenant();
    });

    /** An erasure recorded and taken by a process that died: running, its lease lapsed, no queue job. */
    const takenByADeadProcess = async (email: string): Promise<string> => {
      const erasures = t.app.get(PrivacyRepository);
      const id = randomUUID();
      await db.transaction((tx) =>
        erasures.insert(tx, who.organizationId, { id, suppress: false, email, phone: null, personId: null }),
      );
      await erasures.start(who.organizationId, id, { owner: 'dead-process', leaseMs: 1 });
      return id;
    };

    it('is finished by the next run, which adds its counts to those already recorded', async () => {
      const email = `rita.zq${RUN}@resumed.example`;
      const session = randomUUID();
      await ingest(t.server, who.key, session, sessionBody({ email, name: `Ritazq${RUN}` })).expect(200);
      const [link] = await createLinks(t.server, who.key, [{ firstName: `Ritazq${RUN}`, email }]);
      const id = await takenByADeadProcess(email);
      // The dead run had emptied the link and counted it, then died before the sessions.
      const subject = { emailKey: email, phoneDigits: null };
      expect(await t.app.get(LinkErasure).erase(who.organizationId, subject, [])).toBe(1);
      await t.app.get(PrivacyRepository).addCounts(who.organizationId, id, { customLinks: 1 });

      await t.app.get(ErasureRunner).run(who.organizationId, id);

      const done = (await get(`${ERASURES}/${id}`, who.key).expect(200)).body as Erasure;
      expect(done).toMatchObject({ status: 'completed', counts: { customLinks: 1, sessions: 1, people: 1 } });
      await get(`/api/v1/sessions/${session}`, who.key).expect(404);
      expect(((await get(`/api/v1/custom-links/${link.id}`, who.key).expect(200)).body as Link).email).toBeNull();
      expect(await dumped([email, `Ritazq${RUN}`])).toEqual([]);
    });

    it('fails with a safe reason after five runs, forgetting its subject', async () => {
      const id = await takenByADeadProcess(`tries.zq${RUN}@failed.example`);
      await db.query(`UPDATE privacy_erasures SET attempts = 5 WHERE organization_id = $1 AND id = $2`, [
        who.organizationId,
        id,
      ]);
      await t.app.get(ErasureRunner).run(who.organizationId, id);
      expect((await get(`${ERASURES}/${id}`, who.key).expect(200)).body).toMatchObject({
        status: 'failed',
        counts: null,
        completedAt: expect.any(String),
        failureReason: 'The erasure failed repeatedly; request it again.',
      });
      const rows: { subject_email: string | null }[] = await db.query(
        `SELECT subject_email FROM privacy_erasures WHERE id = $1`,
        [id],
      );
      expect(rows).toEqual([{ subject_email: null }]);
    });
  });
});
