import { Body, Controller, Get, NotFoundException, Post, Query } from '@nestjs/common';
import { IsString } from 'class-validator';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Public, RequireScope } from '../src/common/auth/auth.decorators';
import { PaginationQuery } from '../src/common/pagination/pagination.query';
import { detailOf } from './support/api-responses';
import type { Campaign } from './support/api-types';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * The error model through HTTP: docs/api.md §7 (texts; 404 / 405 / 413 / 500, X-Request-ID), §7.3
 * (the 422 shape), §7.4 (order of checks). Probe routes stand in for what no resource route has yet
 * (a paginated query, an unexpected failure); they run through the same global pipeline.
 */

const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MIB = 1024 * 1024;
const SOME_ID = '0190b3b0-7a1c-7cc0-8000-000000000001';
const UNAUTHENTICATED = { detail: 'API key required or invalid.' };
const FORBIDDEN = { detail: 'API key does not include the required scope.' };
const CAMPAIGN_NOT_FOUND = { detail: "Custom Link campaign not found for the key's organization." };
const INTERNAL = { detail: 'Internal server error.' };
const SECRET = 'SELECT key_hash FROM api_keys WHERE secret = 42';

class EchoBody {
  @IsString()
  name!: string;
}

@Controller('probe')
class ErrorProbeController {
  @Post('echo')
  @Public()
  echo(@Body() body: EchoBody): EchoBody {
    return body;
  }

  @Get('page')
  @RequireScope('custom_links:read')
  page(@Query() query: PaginationQuery): PaginationQuery {
    return query;
  }

  @Get('boom')
  @RequireScope('custom_links:read')
  boom(): never {
    throw new Error(SECRET);
  }

  @Get('gone')
  @Public()
  gone(): never {
    throw new NotFoundException();
  }

  @Get('boom-async')
  @Public()
  async boomAsync(): Promise<never> {
    await Promise.resolve();
    throw new TypeError(`Cannot read properties of undefined (reading '${SECRET}')`);
  }
}

let seq = 0;
const uniqueName = (label: string) => `${label} ${Date.now().toString(36)}-${++seq}`;

/** A JSON object body of exactly `bytes` bytes: {"name":"xxx…"}. */
const bodyOfSize = (bytes: number) => `{"name":"${'x'.repeat(bytes - '{"name":""}'.length)}"}`;

describe('error model', () => {
  let t: TestApp;
  let who: Tenant;
  /** A key whose scopes cover none of the campaign routes. */
  let outsider: Tenant;

  beforeAll(async () => {
    // Limits are other specs' subject: keep them out of the way of the many requests made here.
    t = await createTestApp(
      { RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' },
      { controllers: [ErrorProbeController] },
    );
    who = await t.createTenant(['custom_links:read', 'custom_links:write']);
    outsider = await t.createTenant(['sessions:read']);
  });
  afterAll(() => t.close());

  /** `key` null: no key at all. A string body is sent verbatim as application/json. */
  const authed = (req: request.Test, key: string | null) => (key ? req.set('x-api-key', key) : req);
  const post = (body?: string | object, key: string | null = who.key) => {
    const req = authed(request(t.server).post(CAMPAIGNS), key);
    if (typeof body === 'string') return req.set('Content-Type', 'application/json').send(body);
    return body === undefined ? req : req.send(body);
  };
  const patch = (id: string, body: object, key: string | null = who.key) =>
    authed(request(t.server).patch(`${CAMPAIGNS}/${id}`), key).send(body);

  describe('routing', () => {
    it.each([
      ['an unknown path', 'get', '/nope'],
      ['an unknown path under /api/v1', 'get', '/api/v1/nothing-here'],
      ['a path below a known route', 'get', `${CAMPAIGNS}/${SOME_ID}/nothing-here`],
      ['an unknown path, any method', 'post', '/api/v1/nope'],
    ] as const)('answers 404 Not Found for %s, without a key', async (_label, method, path) => {
      const agent = request(t.server);
      const res = await agent[method](path)
        .expect(404)
        .expect('Content-Type', /application\/json/);
      expect(res.body).toEqual({ detail: 'Not Found' });
    });

    it('answers 404 before looking at an invalid key', async () => {
      const res = await request(t.server).get('/nope').set('Authorization', 'Basic dXNlcjpwYXNz').expect(404);
      expect(res.body).toEqual({ detail: 'Not Found' });
    });

    // A handler's own Not Found (e.g. a missing static file under /docs) is not a wrong method.
    it('a routed GET whose handler reports Not Found is 404, not 405', async () => {
      const res = await request(t.server).get('/probe/gone');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not Found' });
      expect(res.headers.allow).toBeUndefined();
    });

    it.each([
      ['PUT', CAMPAIGNS, ['GET', 'HEAD', 'POST']],
      ['DELETE', CAMPAIGNS, ['GET', 'HEAD', 'POST']],
      ['GET', `${CAMPAIGNS}/${SOME_ID}`, ['DELETE', 'PATCH']],
      ['POST', `${CAMPAIGNS}/${SOME_ID}`, ['DELETE', 'PATCH']],
      ['POST', '/healthz', ['GET', 'HEAD']],
    ])('answers 405 with Allow for %s %s, without a key', async (method, path, allowed) => {
      const res = await request(t.server)[method.toLowerCase() as 'get'](path).expect(405);
      expect(res.body).toEqual({ detail: 'Method Not Allowed' });
      expect((res.headers.allow as string).split(/,\s*/).sort()).toEqual(allowed);
    });
  });

  describe('X-Request-ID', () => {
    const big = bodyOfSize(MIB + 1);
    const cases: [number, (id?: string) => request.Test][] = [
      [200, (id) => withId(request(t.server).get(CAMPAIGNS).set('x-api-key', who.key), id)],
      [401, (id) => withId(request(t.server).get(CAMPAIGNS), id)],
      [403, (id) => withId(request(t.server).get(CAMPAIGNS).set('x-api-key', outsider.key), id)],
      [404, (id) => withId(request(t.server).get('/nope'), id)],
      [405, (id) => withId(request(t.server).put(CAMPAIGNS), id)],
      [
        413,
        (id) =>
          withId(
            request(t.server).post(CAMPAIGNS).set('x-api-key', who.key).set('Content-Type', 'application/json'),
            id,
          ).send(big),
      ],
      [422, (id) => withId(request(t.server).post(CAMPAIGNS).set('x-api-key', who.key), id).send({})],
      [500, (id) => withId(request(t.server).get('/probe/boom').set('x-api-key', who.key), id)],
    ];
    function withId(req: request.Test, id?: string): request.Test {
      return id === undefined ? req : req.set('X-Request-ID', id);
    }

    it.each(cases)('a %i response echoes a valid incoming id', async (status, send) => {
      const id = `client-${status}-AZaz09~!#$%&'*+-.^_\`|{}[]<>@;:"/?=,()`;
      const res = await send(id).expect(status);
      expect(res.headers['x-request-id']).toBe(id);
    });

    it.each(cases)(
      'a %i response without an incoming id carries a new UUID, different each time',
      async (status, send) => {
        const first = await send().expect(status);
        const second = await send().expect(status);
        expect(first.headers['x-request-id']).toMatch(UUID);
        expect(second.headers['x-request-id']).toMatch(UUID);
        expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
      },
    );

    it.each(cases)('a %i response replaces an invalid incoming id with a new UUID', async (status, send) => {
      for (const invalid of ['r'.repeat(129), 'has space', 'tab\there', 'caf\u00e9']) {
        const res = await send(invalid).expect(status);
        expect(res.headers['x-request-id']).toMatch(UUID);
      }
    });

    it('accepts the bounds: 1 and 128 visible characters', async () => {
      for (const id of ['x', 'y'.repeat(128)]) {
        const res = await request(t.server).get('/nope').set('X-Request-ID', id).expect(404);
        expect(res.headers['x-request-id']).toBe(id);
      }
    });
  });

  describe('413 request body too large', () => {
    it('refuses a JSON body over 1 MiB on POST campaigns', async () => {
      const res = await post(bodyOfSize(MIB + 1))
        .expect(413)
        .expect('Content-Type', /application\/json/);
      expect(res.body).toEqual({ detail: 'Request body too large.' });
    });

    it('accepts exactly 1 MiB (then validates it: the name is too long)', async () => {
      const res = await post(bodyOfSize(MIB)).expect(422);
      expect(detailOf(res)).toEqual([
        expect.objectContaining({ type: 'string_too_long', loc: ['body', 'name'], ctx: { max_length: 255 } }),
      ]);
    });

    it('refuses an oversized body sent without Content-Length (chunked)', async () => {
      const { status, body } = await rawPost(
        t,
        CAMPAIGNS,
        { 'x-api-key': who.key, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
        [bodyOfSize(MIB + 10).slice(0, MIB / 2), bodyOfSize(MIB + 10).slice(MIB / 2)],
      );
      expect(status).toBe(413);
      expect(JSON.parse(body)).toEqual({ detail: 'Request body too large.' });
    });

    it.each([
      ['link creation', '/api/v1/custom-links', 'links'],
      ['event ingestion', '/api/v1/events', 'events'],
    ])(
      '%s reads up to 5 MiB (its @JsonBodyLimit), then validates; beyond that it is 413',
      async (_label, path, field) => {
        const { key } = await t.createTenant();
        const send = (body: string) =>
          request(t.server).post(path).set('x-api-key', key).set('Content-Type', 'application/json').send(body);
        for (const size of [MIB + 1, 5 * MIB]) {
          const res = await send(bodyOfSize(size)).expect(422);
          expect(detailOf(res)).toEqual([expect.objectContaining({ type: 'missing', loc: ['body', field] })]);
        }
        expect((await send(bodyOfSize(5 * MIB + 1)).expect(413)).body).toEqual({ detail: 'Request body too large.' });
      },
    );

    it('a public route reads its body under the standard limit', async () => {
      const echo = (body: string) =>
        request(t.server).post('/probe/echo').set('Content-Type', 'application/json').send(body);
      expect((await echo('{"name":"x"}').expect(201)).body).toEqual({ name: 'x' });
      expect(detailOf(await echo('{name: 1}').expect(422))).toEqual([
        expect.objectContaining({ type: 'json_invalid', loc: ['body', 1] }),
      ]);
      expect((await echo(bodyOfSize(MIB + 1)).expect(413)).body).toEqual({ detail: 'Request body too large.' });
    });
  });

  // Issue 17: the key is checked from the headers before a byte of the body is parsed.
  describe('authentication before the body', () => {
    const deeplyNested = '['.repeat(200_000);

    it('an unauthenticated POST of 200,000 `[` is a 401 at once, its body never parsed', async () => {
      const started = Date.now();
      const res = await post(deeplyNested, null);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHENTICATED);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('an unauthenticated POST over every body limit is a 401, not a 413', async () => {
      for (const path of [CAMPAIGNS, '/api/v1/custom-links', '/api/v1/events']) {
        const res = await request(t.server)
          .post(path)
          .set('Content-Type', 'application/json')
          .send(bodyOfSize(5 * MIB + 1));
        expect([path, res.status, res.body]).toEqual([path, 401, UNAUTHENTICATED]);
      }
    });

    it('an unknown key is a 401 whatever the body', async () => {
      for (const body of [deeplyNested, bodyOfSize(MIB + 1), '{name: 1}']) {
        expect((await post(body, 'sk_live_unknown').expect(401)).body).toEqual(UNAUTHENTICATED);
      }
    });

    it('a key without the scope is a 403 whatever the body', async () => {
      for (const body of [deeplyNested, bodyOfSize(MIB + 1), '{name: 1}']) {
        expect((await post(body, outsider.key).expect(403)).body).toEqual(FORBIDDEN);
      }
    });
  });

  describe('422 shapes (docs/api.md §7.3)', () => {
    it('body absent', async () => {
      const res = await post()
        .expect(422)
        .expect('Content-Type', /application\/json/);
      expect(res.body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
    });

    it('body empty with Content-Type: application/json', async () => {
      const res = await post('').expect(422);
      expect(res.body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
    });

    it('body empty and chunked is absent too', async () => {
      const { status, body } = await rawPost(
        t,
        CAMPAIGNS,
        { 'x-api-key': who.key, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
        [],
      );
      expect(status).toBe(422);
      expect(JSON.parse(body)).toEqual({
        detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
      });
    });

    // Expected offsets and reasons are what Python's json.loads reports (FastAPI's loc and ctx).
    it.each([
      ['{name: 1}', 1, 'Expecting property name enclosed in double quotes'],
      ['{"name":"a",}', 12, 'Expecting property name enclosed in double quotes'],
      ['{"name":"a" "x":1}', 12, "Expecting ',' delimiter"],
      ['{"name":"a"} x', 13, 'Extra data'],
      ['{"name": ', 9, 'Expecting value'],
      ['{"name":"a"', 11, "Expecting ',' delimiter"],
      ['[', 1, 'Expecting value'],
      ['{"name":"x\u0001"}', 10, 'Invalid control character at'],
      ['{"name": x}', 9, 'Expecting value'],
      ['{"name" "a"}', 8, "Expecting ':' delimiter"],
      ['{"name":"a","b"}', 15, "Expecting ':' delimiter"],
      ['{"name":01}', 9, "Expecting ',' delimiter"],
    ])('malformed JSON %j: json_invalid at its character offset', async (text, offset, reason) => {
      const res = await post(text).expect(422);
      expect(res.body).toEqual({
        detail: [
          { type: 'json_invalid', loc: ['body', offset], msg: 'JSON decode error', input: {}, ctx: { error: reason } },
        ],
      });
    });

    it.each([
      ['an array', [{ name: 'x' }]],
      ['a string', 'abc'],
      ['a number', 12],
    ])('body that is %s: model_attributes_type with the body as input', async (_label, value) => {
      const res = await post(JSON.stringify(value)).expect(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'model_attributes_type',
            loc: ['body'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input: value,
          },
        ],
      });
    });

    it('missing field: input is the enclosing object as sent', async () => {
      expect((await post({}).expect(422)).body).toEqual({
        detail: [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: {} }],
      });
      expect((await post({ title: 'x', n: 1 }).expect(422)).body).toEqual({
        detail: [{ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: { title: 'x', n: 1 } }],
      });
    });

    it.each([
      [
        'empty',
        '',
        { type: 'string_too_short', msg: 'String should have at least 1 character', ctx: { min_length: 1 } },
      ],
      [
        'whitespace only (trimmed first)',
        ' \t  ',
        { type: 'string_too_short', msg: 'String should have at least 1 character', ctx: { min_length: 1 } },
      ],
      [
        '256 characters',
        'n'.repeat(256),
        { type: 'string_too_long', msg: 'String should have at most 255 characters', ctx: { max_length: 255 } },
      ],
      ['a number', 5, { type: 'string_type', msg: 'Input should be a valid string' }],
      ['null', null, { type: 'string_type', msg: 'Input should be a valid string' }],
      ['a list', ['a'], { type: 'string_type', msg: 'Input should be a valid string' }],
    ])('name %s', async (_label, name, expected) => {
      for (const res of [await post({ name }).expect(422), await patch(SOME_ID, { name }).expect(422)]) {
        expect(res.body).toEqual({ detail: [{ ...expected, loc: ['body', 'name'], input: name }] });
      }
    });

    it('255 characters is within bounds', async () => {
      const name = `${uniqueName('Long')} `.padEnd(255, 'z');
      expect((await post({ name }).expect(201)).body).toMatchObject({ name });
    });

    it('unknown body fields are ignored (201) and not echoed', async () => {
      const name = uniqueName('Extra');
      const res = await post({ name, color: 'red', id: SOME_ID, customLinkCount: 99 }).expect(201);
      expect(res.body).toMatchObject({ name, customLinkCount: 0 });
      expect(res.body).not.toHaveProperty('color');
      expect((res.body as Campaign).id).not.toBe(SOME_ID);
    });

    it('invalid path uuid: uuid_parsing at ["path","campaign_id"] with the raw string', async () => {
      const error =
        'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1';
      const res = await patch('not-a-uuid', { name: 'ok' }).expect(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'uuid_parsing',
            loc: ['path', 'campaign_id'],
            msg: `Input should be a valid UUID, ${error}`,
            input: 'not-a-uuid',
            ctx: { error },
          },
        ],
      });

      const short = `${SOME_ID.slice(0, -1)}`;
      const lengthError = 'invalid group length in group 4: expected 12, found 11';
      const del = await request(t.server).delete(`${CAMPAIGNS}/${short}`).set('x-api-key', who.key).expect(422);
      expect(del.body).toEqual({
        detail: [
          {
            type: 'uuid_parsing',
            loc: ['path', 'campaign_id'],
            msg: `Input should be a valid UUID, ${lengthError}`,
            input: short,
            ctx: { error: lengthError },
          },
        ],
      });
    });

    it('Idempotency-Key of 256 characters: string_too_long at ["header","idempotency-key"]', async () => {
      const key = 'k'.repeat(256);
      const res = await request(t.server)
        .post(CAMPAIGNS)
        .set('x-api-key', who.key)
        .set('Idempotency-Key', key)
        .send({ name: uniqueName('Idem') })
        .expect(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'string_too_long',
            loc: ['header', 'idempotency-key'],
            msg: 'String should have at most 255 characters',
            input: key,
            ctx: { max_length: 255 },
          },
        ],
      });
    });

    it('Idempotency-Key empty: string_too_short', async () => {
      const res = await request(t.server)
        .post(CAMPAIGNS)
        .set('x-api-key', who.key)
        .set('Idempotency-Key', '')
        .send({ name: uniqueName('Idem') })
        .expect(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'string_too_short',
            loc: ['header', 'idempotency-key'],
            msg: 'String should have at least 1 character',
            input: '',
            ctx: { min_length: 1 },
          },
        ],
      });
    });

    it('one 422 lists path, then header, then body issues', async () => {
      const key = 'k'.repeat(256);
      const res = await request(t.server)
        .patch(`${CAMPAIGNS}/not-a-uuid`)
        .set('x-api-key', who.key)
        .set('Idempotency-Key', key)
        .send({ name: '' })
        .expect(422);
      expect(detailOf(res)).toEqual([
        expect.objectContaining({ type: 'uuid_parsing', loc: ['path', 'campaign_id'], input: 'not-a-uuid' }),
        expect.objectContaining({ type: 'string_too_long', loc: ['header', 'idempotency-key'], input: key }),
        expect.objectContaining({ type: 'string_too_short', loc: ['body', 'name'], input: '' }),
      ]);
    });

    it('nothing is created by a request that failed validation', async () => {
      const fresh = await t.createTenant(['custom_links:write']);
      await post({ name: '' }, fresh.key).expect(422);
      await post('{name: 1}', fresh.key).expect(422);
      const res = await request(t.server).get(CAMPAIGNS).set('x-api-key', fresh.key).expect(200);
      expect(res.body).toEqual({ campaigns: [], total: 0, limit: 50, offset: 0, nextCursor: null });
    });
  });

  describe('pagination query (probe route)', () => {
    const page = (query: string) => request(t.server).get(`/probe/page${query}`).set('x-api-key', who.key);

    it('defaults to limit 50, offset 0', async () => {
      expect((await page('').expect(200)).body).toEqual({ limit: 50, offset: 0 });
    });

    it('coerces query strings to numbers', async () => {
      expect((await page('?limit=5&offset=10').expect(200)).body).toEqual({ limit: 5, offset: 10, offsetGiven: true });
      expect((await page('?limit=200&offset=1000000').expect(200)).body).toEqual({
        limit: 200,
        offset: 1000000,
        offsetGiven: true,
      });
      expect((await page('?limit=1').expect(200)).body).toEqual({ limit: 1, offset: 0 });
    });

    it('a repeated parameter counts with its last value; unknown parameters are ignored', async () => {
      expect((await page('?limit=5&limit=7&sort=x').expect(200)).body).toEqual({ limit: 7, offset: 0 });
    });

    it.each([
      [
        'limit=0',
        {
          type: 'greater_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
      ],
      [
        'limit=201',
        {
          type: 'less_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be less than or equal to 200',
          input: '201',
          ctx: { le: 200 },
        },
      ],
      [
        'offset=-1',
        {
          type: 'greater_than_equal',
          loc: ['query', 'offset'],
          msg: 'Input should be greater than or equal to 0',
          input: '-1',
          ctx: { ge: 0 },
        },
      ],
      [
        'offset=1000001',
        {
          type: 'less_than_equal',
          loc: ['query', 'offset'],
          msg: 'Input should be less than or equal to 1000000',
          input: '1000001',
          ctx: { le: 1000000 },
        },
      ],
      [
        'limit=abc',
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'abc',
        },
      ],
      [
        'limit=1.5',
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: '1.5',
        },
      ],
    ])('%s', async (query, issue) => {
      expect((await page(`?${query}`).expect(422)).body).toEqual({ detail: [issue] });
    });

    it('reports both parameters in one 422, limit first', async () => {
      const res = await page('?offset=-5&limit=abc').expect(422);
      expect(detailOf(res)).toEqual([
        expect.objectContaining({ type: 'int_parsing', loc: ['query', 'limit'], input: 'abc' }),
        expect.objectContaining({ type: 'greater_than_equal', loc: ['query', 'offset'], input: '-5' }),
      ]);
    });
  });

  describe('500 internal server error', () => {
    it('hides the cause of a thrown Error', async () => {
      const res = await request(t.server)
        .get('/probe/boom')
        .set('x-api-key', who.key)
        .expect(500)
        .expect('Content-Type', /application\/json/);
      expect(res.body).toEqual(INTERNAL);
      expect(res.text).not.toMatch(/SELECT|api_keys|secret|Error|at .*\.ts/);
    });

    it('hides the cause of a rejected promise too', async () => {
      const res = await request(t.server).get('/probe/boom-async').expect(500);
      expect(res.body).toEqual(INTERNAL);
      expect(res.text).not.toMatch(/SELECT|TypeError|Cannot read|at .*\.ts/);
    });
  });

  describe('precedence (docs/api.md §7.4)', () => {
    it('401 before 422: no key and an invalid body, path or JSON', async () => {
      for (const res of [
        await post({ name: '' }, null),
        await post('{name: 1}', null),
        await post(undefined, null),
        await patch('not-a-uuid', { name: '' }, null),
        await request(t.server).post(CAMPAIGNS).set('Idempotency-Key', 'k'.repeat(256)).send({ name: 5 }),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual(UNAUTHENTICATED);
      }
    });

    it('403 before 422: a key without the scope and an invalid body or path', async () => {
      const reader = await t.createTenant(['custom_links:read']);
      const sessions = await t.createTenant(['sessions:read']);
      for (const res of [
        await post({ name: '' }, sessions.key),
        await post('{name: 1}', reader.key),
        await patch('not-a-uuid', { name: 5 }, reader.key),
        await request(t.server).delete(`${CAMPAIGNS}/not-a-uuid`).set('x-api-key', reader.key),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual(FORBIDDEN);
      }
    });

    it('422 before 404: an invalid uuid is never looked up, and a valid unknown id with an invalid body is 422', async () => {
      const res = await patch('0190b3b0-7a1c-7cc0-8000-zzzzzzzzzzzz', { name: 'fine' }).expect(422);
      expect(detailOf(res)).toEqual([expect.objectContaining({ type: 'uuid_parsing', loc: ['path', 'campaign_id'] })]);
      const unknown = await patch(SOME_ID, { name: '' }).expect(422);
      expect(detailOf(unknown)).toEqual([expect.objectContaining({ type: 'string_too_short', loc: ['body', 'name'] })]);
    });

    it("404 for a valid uuid of another organization's campaign", async () => {
      const other = await t.createTenant(['custom_links:write']);
      const theirs = (await post({ name: uniqueName('Theirs') }, other.key).expect(201)).body as Campaign;
      expect((await patch(theirs.id, { name: uniqueName('Mine') }).expect(404)).body).toEqual(CAMPAIGN_NOT_FOUND);
      expect(
        (await request(t.server).delete(`${CAMPAIGNS}/${theirs.id}`).set('x-api-key', who.key).expect(404)).body,
      ).toEqual(CAMPAIGN_NOT_FOUND);
      expect((await patch(SOME_ID, { name: uniqueName('Nobody') }).expect(404)).body).toEqual(CAMPAIGN_NOT_FOUND);
    });
  });
});

/** A POST through node:http, for framings supertest does not produce (chunked, empty chunked). */
function rawPost(
  t: TestApp,
  path: string,
  headers: Record<string, string>,
  chunks: string[],
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const server = t.server.listen(0, () => {
      const { port } = server.address() as AddressInfo;
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => server.close(() => resolve({ status: res.statusCode ?? 0, body })));
      });
      req.on('error', (error) => server.close(() => reject(error)));
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  });
}
