import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import request from 'supertest';
import type { Campaign, Job, JobEnvelope, JobItemPage, Link, LinkPage } from './support/api-types';
import { ingest, sessionBody } from './support/sessions';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';

/**
 * Issue 17, point 1: no input yields a 5xx. Every string is checked before it reaches PostgreSQL
 * (U+0000 and unpaired surrogates are a 422 `value_error` at their field, nothing stored), UUIDs
 * reach SQL only in canonical form, JSON of any depth or encoding is a 422 `json_invalid`, and the
 * public routes answer 404 for any bytes (docs/api.md §7.3, §7.5, §6.1; DECISIONS "Hostile input").
 * Each case named in the issue as a 500 has its own test here.
 */

const LINKS = '/api/v1/custom-links';
const JOBS = '/api/v1/custom-link-jobs';
const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const NOT_FOUND = { detail: 'Not Found' };
const LINK_NOT_FOUND = { detail: "Custom Link not found for the key's organization." };
const NUL_REASON = 'text must not contain the NUL character (U+0000)';
const SURROGATE_REASON = 'text must not contain an unpaired surrogate (U+D800 to U+DFFF)';
const PROVIDED = 'https://cdn.example.com/card.png';

const valueError = (loc: (string | number)[], input: unknown, reason: string) => ({
  type: 'value_error',
  loc,
  msg: `Value error, ${reason}`,
  input,
  ctx: { error: reason },
});
const jsonInvalid = (position: number, reason: string) => ({
  type: 'json_invalid',
  loc: ['body', position],
  msg: 'JSON decode error',
  input: {},
  ctx: { error: reason },
});

describe('hostile input (issue 17)', () => {
  let t: TestApp;
  let who: Tenant;
  let link: Link;
  let slug: string;

  beforeAll(async () => {
    t = await createTestApp({
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
      PUBLIC_BASE_URL: 'https://go.hostile.test',
    });
    who = await t.createTenant();
    [link] = await createLinks([
      { firstName: 'Ada', company: 'Back\\slash', context: 'original', shareThumbnailUrl: PROVIDED },
      { firstName: 'Bob', company: 'Backslash', shareThumbnailUrl: PROVIDED },
    ]);
    slug = link.url.slice('https://go.hostile.test/l/'.length);
  });
  afterAll(() => t.close());

  const get = (path: string) => request(t.server).get(path).set('x-api-key', who.key);
  const postJson = (path: string, body: string, contentType = 'application/json') =>
    request(t.server).post(path).set('x-api-key', who.key).set('Content-Type', contentType).send(body);
  /** Bytes as they are (supertest would turn a Buffer into JSON). */
  const postBytes = async (path: string, bytes: Buffer, contentType = 'application/json') => {
    const { status, body } = await rawRequest(
      t,
      Buffer.concat([
        Buffer.from(
          `POST ${path} HTTP/1.1\r\nHost: x\r\nx-api-key: ${who.key}\r\nContent-Type: ${contentType}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
        ),
        bytes,
      ]),
    );
    return { status, body: JSON.parse(body) as unknown };
  };
  const detail = (res: request.Response) => (res.body as { detail: unknown }).detail;

  async function createLinks(links: Record<string, unknown>[]): Promise<Link[]> {
    const res = await request(t.server)
      .post(LINKS)
      .set('x-api-key', who.key)
      .set('Idempotency-Key', randomUUID())
      .send({ links })
      .expect(202);
    const jobId = (res.body as JobEnvelope).job.id;
    await readUntil(
      async () => ((await get(`${JOBS}/${jobId}`).expect(200)).body as Job).status,
      (status) => status === 'completed',
    );
    const items = ((await get(`${JOBS}/${jobId}/items`).expect(200)).body as JobItemPage).items;
    return Promise.all(
      items.map(async (item) => (await get(`${LINKS}/${item.customLinkId}`).expect(200)).body as Link),
    );
  }

  describe('GET /l/{slug} with any bytes is a 404', () => {
    it.each([
      ['U+0000 (%00)', '%00'],
      ['U+0000 inside', 'a%00b'],
      ['a byte that is not UTF-8 (%FF)', '%FF'],
      ['a truncated percent-encoding (%E0%A4%A)', '%E0%A4%A'],
      ['an encoded surrogate (%ED%A0%80)', '%ED%A0%80'],
      ['a lone percent sign', '%'],
      ['an SQL fragment', "'%3B%20DROP%20TABLE%20custom_links%3B--"],
      ['an emoji', '%F0%9F%98%80'],
      ['one character longer than any slug', 'x'.repeat(33)],
      ['8,000 characters', 'y'.repeat(8000)],
    ])('/l/{%s}', async (_label, path) => {
      const res = await request(t.server).get(`/l/${path}`).redirects(0);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    });

    it('still redirects a real slug', async () => {
      await request(t.server).get(`/l/${slug}`).redirects(0).expect(302);
    });

    it('a path that does not decode is a 404 on every route, with or without a key', async () => {
      for (const path of [`${LINKS}/%FF`, `${CAMPAIGNS}/%E0%A4%A`, '/api/v1/accounts/%', '/nope/%C0%AF']) {
        for (const res of [
          await request(t.server).get(path),
          await get(path),
          await request(t.server).patch(path).set('x-api-key', who.key).send({}),
        ]) {
          expect([path, res.status, res.body]).toEqual([path, 404, NOT_FOUND]);
        }
      }
    });
  });

  describe('GET /thumbnails/{link_id}/{file} with garbage is a 404', () => {
    const file = `${'a'.repeat(64)}.png`;
    it.each([
      ['a urn:uuid: link id', `urn:uuid:${randomUUID()}/${file}`],
      ['a braced link id', `%7B${randomUUID()}%7D/${file}`],
      ['U+0000 as link id', `%00/${file}`],
      ['U+0000 as file', `${randomUUID()}/%00.png`],
      ['a link id that does not decode', `%FF/${file}`],
      ['a 5,000-character file', `${randomUUID()}/${'b'.repeat(5000)}.png`],
      ['an encoded path traversal', `${randomUUID()}/..%2F..%2Fetc%2Fpasswd`],
    ])('/thumbnails with %s', async (_label, path) => {
      const res = await request(t.server).get(`/thumbnails/${path}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    });
  });

  describe('UUIDs reach SQL in canonical form', () => {
    it('GET a link by urn:uuid:, braced, simple and upper-case forms finds the same link', async () => {
      const simple = link.id.replaceAll('-', '');
      for (const form of [
        `urn:uuid:${link.id}`,
        `%7B${link.id}%7D`,
        simple,
        simple.toUpperCase(),
        link.id.toUpperCase(),
      ]) {
        const res = await get(`${LINKS}/${form}`);
        expect([form, res.status, (res.body as Link).id]).toEqual([form, 200, link.id]);
      }
    });

    it('GET /custom-links/urn:uuid:<unknown uuid> is the resource 404, not a 500', async () => {
      const res = await get(`${LINKS}/urn:uuid:${randomUUID()}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(LINK_NOT_FOUND);
    });

    it('forms the Rust uuid crate refuses are a 422 uuid_parsing, worded as pydantic', async () => {
      const simple = link.id.replaceAll('-', '');
      const groupCount = 'invalid group count: expected 5, found 1';
      const res = await get(`${LINKS}/urn:uuid:${simple}`).expect(422);
      expect(detail(res)).toEqual([
        {
          type: 'uuid_parsing',
          loc: ['path', 'link_id'],
          msg: `Input should be a valid UUID, ${groupCount}`,
          input: `urn:uuid:${simple}`,
          ctx: { error: groupCount },
        },
      ]);
      const nul = await get(`${LINKS}/%00`).expect(422);
      expect(detail(nul)).toEqual([
        expect.objectContaining({ type: 'uuid_parsing', loc: ['path', 'link_id'], input: '\u0000' }),
      ]);
    });

    it('query and body UUIDs in other forms are canonicalized too', async () => {
      const campaign = (
        await request(t.server)
          .post(CAMPAIGNS)
          .set('x-api-key', who.key)
          .send({ name: `Forms ${randomUUID()}` })
          .expect(201)
      ).body as Campaign;
      const moved = await request(t.server)
        .post(`${LINKS}/actions`)
        .set('x-api-key', who.key)
        .send({
          action: 'move',
          customLinkIds: [`urn:uuid:${link.id}`, `{${link.id.toUpperCase()}}`],
          campaignId: campaign.id.replaceAll('-', ''),
        })
        .expect(200);
      expect(moved.body).toEqual({ action: 'move', affectedCount: 1, customLinkIds: [link.id] });
      const listed = await get(`${LINKS}?campaign_id=urn:uuid:${campaign.id}`).expect(200);
      expect((listed.body as LinkPage).customLinks.map((l) => l.id)).toEqual([link.id]);
      await request(t.server)
        .post(`${LINKS}/actions`)
        .set('x-api-key', who.key)
        .send({ action: 'move', customLinkIds: [link.id], campaignId: null })
        .expect(200);
    });
  });

  describe('U+0000 and unpaired surrogates are a 422 at their field, nothing stored', () => {
    it('GET /sessions?email=%00', async () => {
      const res = await get('/api/v1/sessions?email=%00').expect(422);
      expect(detail(res)).toEqual([valueError(['query', 'email'], '\u0000', NUL_REASON)]);
    });

    it('query filters of every list, the last of a repeated parameter included', async () => {
      for (const [path, name] of [
        ['/api/v1/people?email=a%00', 'email'],
        [`${LINKS}?q=%00`, 'q'],
        [`${LINKS}?company=x&company=y%00`, 'company'],
        [`${LINKS}?external_id=%00`, 'external_id'],
      ]) {
        const res = await get(path);
        expect([path, res.status, detail(res)]).toEqual([
          path,
          422,
          [expect.objectContaining({ type: 'value_error', loc: ['query', name], ctx: { error: NUL_REASON } })],
        ]);
      }
    });

    it('PATCH a link with "context":"a\\u0000b", with and without an Idempotency-Key (the 422 is stored and replayed)', async () => {
      const body = '{"context":"a\\u0000b"}';
      const plain = await request(t.server)
        .patch(`${LINKS}/${link.id}`)
        .set('x-api-key', who.key)
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(422);
      expect(detail(plain)).toEqual([valueError(['body', 'context'], 'a\u0000b', NUL_REASON)]);

      const key = randomUUID();
      const send = () =>
        request(t.server)
          .patch(`${LINKS}/${link.id}`)
          .set('x-api-key', who.key)
          .set('Idempotency-Key', key)
          .set('Content-Type', 'application/json')
          .send(body);
      const first = await send().expect(422);
      expect(detail(first)).toEqual([valueError(['body', 'context'], 'a\u0000b', NUL_REASON)]);
      const replay = await send().expect(422);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);

      expect(((await get(`${LINKS}/${link.id}`).expect(200)).body as Link).context).toBe('original');
    });

    it('an unpaired surrogate in a link field', async () => {
      const res = await request(t.server)
        .patch(`${LINKS}/${link.id}`)
        .set('x-api-key', who.key)
        .set('Content-Type', 'application/json')
        .send('{"context":"x\\ud800y"}')
        .expect(422);
      expect(detail(res)).toEqual([valueError(['body', 'context'], 'x\ud800y', SURROGATE_REASON)]);
    });

    it('a campaign name holding U+0000 or a lone surrogate creates nothing', async () => {
      const fresh = await t.createTenant(['custom_links:read', 'custom_links:write']);
      for (const [text, name, reason] of [
        ['{"name":"Q4\\u0000"}', 'Q4\u0000', NUL_REASON],
        ['{"name":"\\udc00Q4"}', '\udc00Q4', SURROGATE_REASON],
      ]) {
        const res = await request(t.server)
          .post(CAMPAIGNS)
          .set('x-api-key', fresh.key)
          .set('Content-Type', 'application/json')
          .send(text)
          .expect(422);
        expect(detail(res)).toEqual([valueError(['body', 'name'], name, reason)]);
      }
      expect((await request(t.server).get(CAMPAIGNS).set('x-api-key', fresh.key).expect(200)).body).toEqual({
        campaigns: [],
        total: 0,
        limit: 50,
        offset: 0,
        nextCursor: null,
      });
    });

    it('in link creation items, at each item, in field order with the other issues', async () => {
      const body = JSON.stringify({
        links: [{ firstName: 'ok' }, { firstName: 'x\u0000', lastName: 5, company: 'c\ud800' }],
      });
      const res = await request(t.server)
        .post(LINKS)
        .set('x-api-key', who.key)
        .set('Idempotency-Key', randomUUID())
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(422);
      expect(detail(res)).toEqual([
        valueError(['body', 'links', 1, 'firstName'], 'x\u0000', NUL_REASON),
        expect.objectContaining({ type: 'string_type', loc: ['body', 'links', 1, 'lastName'] }),
        valueError(['body', 'links', 1, 'company'], 'c\ud800', SURROGATE_REASON),
      ]);
    });

    it('deep in an ingested session (transcript entries, string lists, tracking) and nothing is stored', async () => {
      const id = randomUUID();
      const body = sessionBody({
        nextSteps: ['fine', 'bad\u0000'],
        tracking: { utmSource: '\ud83d' },
        transcript: {
          entries: [
            { speaker: 'ai', text: 'hi', sequenceNumber: 0 },
            { speaker: 'prospect', text: 'he\u0000llo', sequenceNumber: 1 },
          ],
        },
      });
      const res = await ingest(t.server, who.key, id, body).expect(422);
      expect(detail(res)).toEqual(
        expect.arrayContaining([
          valueError(['body', 'nextSteps', 1], 'bad\u0000', NUL_REASON),
          valueError(['body', 'tracking', 'utmSource'], '\ud83d', SURROGATE_REASON),
          valueError(['body', 'transcript', 'entries', 1, 'text'], 'he\u0000llo', NUL_REASON),
        ]),
      );
      expect(detail(res)).toHaveLength(3);
      await get(`/api/v1/sessions/${id}`).expect(404);
    });

    it('events with U+0000 are a 422 for the whole request', async () => {
      const res = await request(t.server)
        .post('/api/v1/events')
        .set('x-api-key', who.key)
        .send({ events: [{ eventId: 'e\u00001', type: 'open', slug, occurredAt: new Date().toISOString() }] })
        .expect(422);
      expect(detail(res)).toEqual([valueError(['body', 'events', 0, 'eventId'], 'e\u00001', NUL_REASON)]);
    });

    it('a field that already breaks a rule reports that rule only', async () => {
      const res = await request(t.server)
        .patch(`${LINKS}/${link.id}`)
        .set('x-api-key', who.key)
        .send({ phone: `${'9'.repeat(60)}\u0000` })
        .expect(422);
      expect(detail(res)).toEqual([expect.objectContaining({ type: 'string_too_long', loc: ['body', 'phone'] })]);
    });

    it('an Idempotency-Key holding U+0000 never reaches the service (Node refuses the header: 400)', async () => {
      const { status } = await rawRequest(
        t,
        Buffer.from(
          `PATCH ${LINKS}/${link.id} HTTP/1.1\r\nHost: x\r\nx-api-key: ${who.key}\r\nIdempotency-Key: a\u0000b\r\nContent-Length: 2\r\n\r\n{}`,
          'latin1',
        ),
      );
      expect(status).toBe(400);
    });
  });

  describe('JSON of any depth or encoding', () => {
    it('an authenticated POST of 200,000 `[` is a 422 json_invalid at the bracket past the depth limit', async () => {
      const res = await postJson(CAMPAIGNS, '['.repeat(200_000)).expect(422);
      expect(res.body).toEqual({ detail: [jsonInvalid(64, 'recursion limit exceeded')] });
    });

    it('valid JSON nested 100,000 deep where a string is expected is a 422, not a stack overflow', async () => {
      const deep = `{"name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      const res = await postJson(CAMPAIGNS, deep).expect(422);
      expect(res.body).toEqual({ detail: [jsonInvalid(8 + 63, 'recursion limit exceeded')] });
    });

    it('nesting within the limit (63 levels) where a string is expected is a string_type echoing the value', async () => {
      let nested: unknown = 'x';
      for (let i = 0; i < 31; i++) nested = { a: [nested] };
      const res = await postJson(CAMPAIGNS, JSON.stringify({ name: nested })).expect(422);
      expect(res.body).toEqual({
        detail: [{ type: 'string_type', loc: ['body', 'name'], msg: 'Input should be a valid string', input: nested }],
      });
    });

    it('a malformed deep body reports its first syntax error', async () => {
      const res = await postJson(CAMPAIGNS, `{"name" 1, ${'['.repeat(1000)}`).expect(422);
      expect(res.body).toEqual({ detail: [jsonInvalid(8, "Expecting ':' delimiter")] });
    });

    it('bytes that are not UTF-8 are a 422 json_invalid at their character offset', async () => {
      for (const bad of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe0, 0xa4]]) {
        const body = Buffer.concat([Buffer.from('{"name":"é'), Buffer.from(bad), Buffer.from('"}')]);
        expect([bad, await postBytes(CAMPAIGNS, body)]).toEqual([
          bad,
          { status: 422, body: { detail: [jsonInvalid(10, 'Invalid UTF-8 byte sequence')] } },
        ]);
      }
    });

    it('a charset other than UTF-8 is a 422 json_invalid', async () => {
      for (const charset of ['utf-16le', 'latin1']) {
        const answer = await postBytes(
          CAMPAIGNS,
          Buffer.from('{"name":"x"}', charset === 'latin1' ? 'latin1' : 'utf16le'),
          `application/json; charset=${charset}`,
        );
        expect([charset, answer]).toEqual([
          charset,
          { status: 422, body: { detail: [jsonInvalid(0, 'JSON bodies must be encoded in UTF-8')] } },
        ]);
      }
      const name = `UTF-8 ${randomUUID()}`;
      await postJson(CAMPAIGNS, JSON.stringify({ name }), 'application/json; charset=UTF-8').expect(201);
    });
  });

  describe('keys that steer the object model', () => {
    // Found by the fuzz suite: class-transformer took a nested own `constructor` for a class and threw (500).
    it('constructor and __proto__ keys are unknown fields, ignored at any depth', async () => {
      const name = `Proto ${randomUUID()}`;
      const created = await postJson(
        CAMPAIGNS,
        `{"name":"${name}","extra":{"constructor":{}},"constructor":{"a":{"constructor":[]}},"__proto__":{"name":5}}`,
      ).expect(201);
      expect(created.body).toMatchObject({ name });
      const res = await postJson(CAMPAIGNS, '{"name":{"constructor":{}}}').expect(422);
      expect(detail(res)).toEqual([
        {
          type: 'string_type',
          loc: ['body', 'name'],
          msg: 'Input should be a valid string',
          input: { constructor: {} },
        },
      ]);
      await get(`${LINKS}?constructor=x&__proto__=y`).expect(200);
    });
  });

  describe('query parameters that reach SQL', () => {
    it('a repeated multi-value filter reads as its comma list; any other repeated parameter counts with its last value', async () => {
      const res = await get(`${JOBS}?status=bogus&status=queued`).expect(422);
      expect(detail(res)).toEqual([
        expect.objectContaining({ type: 'enum', loc: ['query', 'status'], input: 'bogus,queued' }),
      ]);
      await get(`${JOBS}?campaign_id=not-a-uuid&campaign_id=00000000-0000-7000-8000-000000000000`).expect(200);
      const last = await get(`${JOBS}?campaign_id=00000000-0000-7000-8000-000000000000&campaign_id=not-a-uuid`).expect(
        422,
      );
      expect(detail(last)).toEqual([expect.objectContaining({ loc: ['query', 'campaign_id'], input: 'not-a-uuid' })]);
    });

    it('a backslash in a substring filter matches literally', async () => {
      const companies = async (query: string) =>
        ((await get(`${LINKS}?company=${encodeURIComponent(query)}`).expect(200)).body as LinkPage).customLinks.map(
          (l) => l.company,
        );
      expect(await companies('k\\s')).toEqual(['Back\\slash']);
      expect(await companies('\\')).toEqual(['Back\\slash']);
      expect(await companies('backs')).toEqual(['Backslash']);
      expect(await companies('\\%')).toEqual([]);
    });
  });
});

/** Sends `raw` as is on a new connection; the status and body of the answer (one answer, then the connection closes). */
function rawRequest(t: TestApp, raw: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const server = t.server.listen(0, () => {
      const { port } = server.address() as AddressInfo;
      const socket = new net.Socket();
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () =>
        server.close(() => {
          const answer = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0),
            body: answer.slice(answer.indexOf('\r\n\r\n') + 4),
          });
        }),
      );
      socket.on('error', (error) => server.close(() => reject(error)));
      socket.connect(port, '127.0.0.1', () => socket.write(raw));
    });
  });
}
