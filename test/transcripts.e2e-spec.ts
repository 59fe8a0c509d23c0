import request from 'supertest';
import type { TranscriptEntryInput } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * Transcripts through HTTP: docs/api.md §2.3, §4.1, §7.2 (404 text), §8.2 (daily transcript reads,
 * the quota and its headers), §13.1 (transcript ingestion); DECISIONS "Transcripts", "Re-ingestion".
 */

type Json = Record<string, unknown>;
const TRANSCRIPT_NOT_FOUND = { detail: 'Transcript not found or outside the organization.' };
const SESSION_NOT_FOUND = { detail: 'Session not found, outside the organization, or not yet analyzed.' };
const FORBIDDEN = { detail: 'API key does not include the required scope.' };
const UNAUTHENTICATED = { detail: 'API key required or invalid.' };
const LIMITED = { detail: 'Rate limit or organization quota exceeded.' };

const ENTRIES: TranscriptEntryInput[] = [
  { speaker: 'agent', text: 'Hi Ada, welcome to the demo.', timestamp: '2026-11-20T10:00:05.000Z', sequenceNumber: 1 },
  {
    speaker: 'prospect',
    text: 'Thanks. We need SSO; my email is ada@acme.com.',
    timestamp: '2026-11-20T10:00:12.000Z',
    sequenceNumber: 2,
  },
  {
    speaker: 'agent',
    text: 'SSO is included in every plan.',
    timestamp: '2026-11-20T10:00:20.000Z',
    sequenceNumber: 3,
  },
  { speaker: 'prospect', text: 'What does it cost?', timestamp: '2026-11-20T10:01:02.000Z', sequenceNumber: 10 },
];

/** `entries` in this order: the service must sort them by sequenceNumber. */
const withTranscript = (entries: TranscriptEntryInput[], overrides: Json = {}) =>
  sessionBody({ ...overrides, transcript: { entries } });
const shuffled = [ENTRIES[2], ENTRIES[3], ENTRIES[0], ENTRIES[1]];

/** The next UTC midnight as Unix seconds. */
const nextUtcMidnight = () => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) / 1000;
};

function transcriptPath(id: string) {
  return `/api/v1/sessions/${id}/transcript`;
}

describe('transcripts', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The request-rate limit is another spec's subject.
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  const read = (app: TestApp, key: string, id: string) =>
    request(app.server).get(transcriptPath(id)).set('Authorization', `Bearer ${key}`);
  const seed = async (app: TestApp, who: Tenant, body: Json, id = newSessionId()) => {
    await ingest(app.server, who.key, id, body).expect(200);
    return id;
  };

  describe('reading', () => {
    it('answers {sessionId, entries, total} with the entries ordered by sequenceNumber, whatever the ingestion order', async () => {
      const who = await t.createTenant();
      const id = await seed(t, who, withTranscript(shuffled));
      const res = await read(t, who.key, id)
        .expect(200)
        .expect('Content-Type', /application\/json/);
      expect(res.body).toEqual({ sessionId: id, entries: ENTRIES, total: 4 });
    });

    it('an entry without timestamp has timestamp null; offsets become ...000Z', async () => {
      const who = await t.createTenant();
      const id = await seed(
        t,
        who,
        withTranscript([
          { speaker: 'prospect', text: 'Second', timestamp: '2026-11-20T11:00:01+01:00', sequenceNumber: 2 },
          { speaker: 'agent', text: 'First', sequenceNumber: 1 },
        ]),
      );
      expect((await read(t, who.key, id).expect(200)).body).toEqual({
        sessionId: id,
        entries: [
          { speaker: 'agent', text: 'First', timestamp: null, sequenceNumber: 1 },
          { speaker: 'prospect', text: 'Second', timestamp: '2026-11-20T10:00:01.000Z', sequenceNumber: 2 },
        ],
        total: 2,
      });
    });

    it('an empty transcript has no entries', async () => {
      const who = await t.createTenant();
      const id = await seed(t, who, withTranscript([]));
      expect((await read(t, who.key, id).expect(200)).body).toEqual({ sessionId: id, entries: [], total: 0 });
    });

    it('is readable exactly when the session detail is: a staging or pending session is 404 for both, and readable once analyzed in production', async () => {
      const who = await t.createTenant();
      const detail = (id: string) =>
        request(t.server).get(`/api/v1/sessions/${id}`).set('Authorization', `Bearer ${who.key}`);
      for (const overrides of [
        { environment: 'staging' },
        { analysisStatus: 'pending' },
        { environment: 'staging', analysisStatus: 'pending' },
      ]) {
        const id = await seed(t, who, withTranscript(shuffled, overrides));
        await detail(id).expect(404, SESSION_NOT_FOUND);
        await read(t, who.key, id).expect(404, TRANSCRIPT_NOT_FOUND);

        // Re-ingested as a visible session (transcript left out: the stored one is kept), both are readable.
        await seed(t, who, sessionBody(), id);
        await detail(id).expect(200);
        expect((await read(t, who.key, id).expect(200)).body).toEqual({ sessionId: id, entries: ENTRIES, total: 4 });

        // Back to invisible: both are 404 again.
        await seed(t, who, sessionBody(overrides), id);
        await detail(id).expect(404, SESSION_NOT_FOUND);
        await read(t, who.key, id).expect(404, TRANSCRIPT_NOT_FOUND);
      }
    });

    it("404 for an unknown id, another organization's session and a session without transcript", async () => {
      const [who, other] = [await t.createTenant(), await t.createTenant()];
      const theirs = await seed(t, other, withTranscript(ENTRIES));
      const bare = await seed(t, who, sessionBody());
      for (const id of [newSessionId(), theirs, bare]) {
        await read(t, who.key, id).expect(404, TRANSCRIPT_NOT_FOUND);
      }
      // The owner still reads it.
      await read(t, other.key, theirs).expect(200);
    });

    it('an invalid id is 422 uuid_parsing at ["path","session_id"]', async () => {
      const who = await t.createTenant();
      const error = 'invalid length: expected length 32 for simple format, found 3';
      expect((await read(t, who.key, '123').expect(422)).body).toEqual({
        detail: [
          {
            type: 'uuid_parsing',
            loc: ['path', 'session_id'],
            msg: `Input should be a valid UUID, ${error}`,
            input: '123',
            ctx: { error },
          },
        ],
      });
    });

    it('needs transcripts:read: sessions:read is not enough (403); no key is 401', async () => {
      const who = await t.createTenant();
      const id = await seed(t, who, withTranscript(ENTRIES));
      const sessionsOnly = await t.createKey(who.organizationId, [
        'sessions:read',
        'sessions:write',
        'people:read',
        'accounts:read',
        'analytics:read',
      ]);
      await read(t, sessionsOnly, id).expect(403, FORBIDDEN);
      await read(t, sessionsOnly, 'not-a-uuid').expect(403, FORBIDDEN);
      await request(t.server).get(transcriptPath(id)).expect(401, UNAUTHENTICATED);
      const transcriptsOnly = await t.createKey(who.organizationId, ['transcripts:read']);
      expect((await read(t, transcriptsOnly, id).expect(200)).body).toEqual({
        sessionId: id,
        entries: ENTRIES,
        total: 4,
      });
    });
  });

  describe('re-ingestion', () => {
    it('leaving transcript out (or null) keeps the stored one; giving one replaces it', async () => {
      const who = await t.createTenant();
      const id = await seed(t, who, withTranscript(shuffled));

      await seed(t, who, sessionBody({ name: 'Ada King' }), id);
      expect((await read(t, who.key, id).expect(200)).body).toEqual({ sessionId: id, entries: ENTRIES, total: 4 });
      await seed(t, who, sessionBody({ name: 'Ada K.', transcript: null }), id);
      expect((await read(t, who.key, id).expect(200)).body).toEqual({ sessionId: id, entries: ENTRIES, total: 4 });

      const replacement: TranscriptEntryInput[] = [
        { speaker: 'prospect', text: 'Second take.', timestamp: '2026-11-20T10:05:00.000Z', sequenceNumber: 2 },
        { speaker: 'agent', text: 'Let us start over.', timestamp: '2026-11-20T10:04:00.000Z', sequenceNumber: 1 },
      ];
      await seed(t, who, withTranscript(replacement, { name: 'Ada Lovelace' }), id);
      expect((await read(t, who.key, id).expect(200)).body).toEqual({
        sessionId: id,
        entries: [replacement[1], replacement[0]],
        total: 2,
      });

      // An empty transcript replaces it too.
      await seed(t, who, withTranscript([]), id);
      expect((await read(t, who.key, id).expect(200)).body).toEqual({ sessionId: id, entries: [], total: 0 });
    });

    it('a session first ingested without transcript gets one later', async () => {
      const who = await t.createTenant();
      const id = await seed(t, who, sessionBody());
      await read(t, who.key, id).expect(404, TRANSCRIPT_NOT_FOUND);
      await seed(t, who, withTranscript(ENTRIES), id);
      expect((await read(t, who.key, id).expect(200)).body).toEqual({ sessionId: id, entries: ENTRIES, total: 4 });
    });
  });

  describe('daily transcript quota (TRANSCRIPT_DAILY_LIMIT=10)', () => {
    const LIMIT = 10;
    let q: TestApp;

    beforeAll(async () => {
      q = await createTestApp({ TRANSCRIPT_DAILY_LIMIT: String(LIMIT), RATE_LIMIT_PER_MINUTE: '100000' });
      // Listening once lets parallel requests share one server instead of supertest starting one each.
      await q.app.listen(0);
    });
    afterAll(() => q.close());

    /**
     * The 429 of an exhausted quota: body and headers of docs/api.md §8.2, §8.5. Reset is the next
     * UTC midnight to the second, and Retry-After the whole seconds from the server's clock (read
     * between `sentAt` and now) to it.
     */
    const expectQuotaRefusal = (res: request.Response, sentAt: number) => {
      const receivedAt = Date.now();
      expect(res.status).toBe(429);
      expect(res.body).toEqual(LIMITED);
      const midnight = nextUtcMidnight();
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      expect(res.headers['x-ratelimit-reset']).toBe(String(midnight));
      expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(midnight - Math.floor(receivedAt / 1000));
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(midnight - Math.floor(sentAt / 1000));
    };

    it('50 parallel reads with 10 left: exactly 10 × 200 and 40 × 429', async () => {
      const who = await q.createTenant();
      const id = await seed(q, who, withTranscript(shuffled));

      const sentAt = Date.now();
      const responses = await Promise.all(Array.from({ length: 50 }, () => read(q, who.key, id)));
      const ok = responses.filter((r) => r.status === 200);
      const refused = responses.filter((r) => r.status !== 200);
      expect(ok).toHaveLength(10);
      expect(refused).toHaveLength(40);
      for (const res of ok) expect(res.body).toEqual({ sessionId: id, entries: ENTRIES, total: 4 });
      for (const res of refused) expectQuotaRefusal(res, sentAt);

      // Still exhausted afterwards; another organization has its own quota.
      expectQuotaRefusal(await read(q, who.key, id), sentAt);
      const other = await q.createTenant();
      const theirs = await seed(q, other, withTranscript(ENTRIES));
      const theirsRes = await Promise.all(Array.from({ length: LIMIT }, () => read(q, other.key, theirs)));
      expect(theirsRes.map((r) => r.status)).toEqual(Array(LIMIT).fill(200));
      expectQuotaRefusal(await read(q, other.key, theirs), sentAt);
    });

    it('404s, invalid ids, 401s and 403s consume nothing: exactly 10 reads succeed after them, the 11th is 429', async () => {
      const [who, other] = [await q.createTenant(), await q.createTenant()];
      const id = await seed(q, who, withTranscript(ENTRIES));
      const bare = await seed(q, who, sessionBody());
      const theirs = await seed(q, other, withTranscript(ENTRIES));
      const staging = await seed(q, who, withTranscript(ENTRIES, { environment: 'staging' }));
      const pending = await seed(q, who, withTranscript(ENTRIES, { analysisStatus: 'pending' }));
      const noTranscriptScope = await q.createKey(who.organizationId, ['sessions:read', 'sessions:write']);

      const failing: [() => request.Test, number][] = [
        [() => read(q, who.key, newSessionId()), 404],
        [() => read(q, who.key, theirs), 404],
        [() => read(q, who.key, bare), 404],
        [() => read(q, who.key, staging), 404],
        [() => read(q, who.key, pending), 404],
        [() => read(q, who.key, 'not-a-uuid'), 422],
        [() => request(q.server).get(transcriptPath(id)), 401],
        [() => read(q, 'sk_live_00000000000000000000000000000000', id), 401],
        [() => read(q, noTranscriptScope, id), 403],
      ];
      for (let round = 0; round < 3; round++) {
        const statuses = await Promise.all(failing.map(async ([send]) => (await send()).status));
        expect(statuses).toEqual(failing.map(([, status]) => status));
      }

      for (let i = 0; i < LIMIT; i++) {
        expect((await read(q, who.key, id).expect(200)).body).toEqual({ sessionId: id, entries: ENTRIES, total: 4 });
      }
      const sentAt = Date.now();
      expectQuotaRefusal(await read(q, who.key, id), sentAt);

      // With the quota gone, what is not found is still a 404, not a 429.
      await read(q, who.key, bare).expect(404, TRANSCRIPT_NOT_FOUND);
      await read(q, who.key, newSessionId()).expect(404, TRANSCRIPT_NOT_FOUND);
      // The other organization's reads are untouched by all of this.
      await read(q, other.key, theirs).expect(200);
    });
  });
});
