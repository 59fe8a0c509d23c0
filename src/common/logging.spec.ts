import express from 'express';
import { get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pinoHttp, type Options } from 'pino-http';
import { loadConfig } from '../config/environment';
import { loggerParams, queryNames, routeOf } from './logging';

const EMAIL = 'ada.lovelace@example.com';
const KEY = 'sk_live_0123456789abcdefghijABCDEFGHIJ';
const ID = '0190b3b0-7a1c-7cc0-8000-000000000001';

describe('queryNames', () => {
  it('lists distinct snake_case names, never values', () => {
    expect(queryNames(`/api/v1/people?email=${encodeURIComponent(EMAIL)}&limit=5&email=x`)).toEqual(['email', 'limit']);
    expect(queryNames('/api/v1/people')).toBeUndefined();
  });

  it("leaves out names that are not shaped like the API's: a caller can put anything there", () => {
    expect(queryNames(`/x?${encodeURIComponent(EMAIL)}=1&q=2&Name=3`)).toEqual(['q']);
  });
});

describe('routeOf', () => {
  const req = (path: string, params: Record<string, string>) =>
    ({ route: { path }, params }) as unknown as Parameters<typeof routeOf>[0];

  it('fills in UUID parameters only', () => {
    expect(routeOf(req('/api/v1/custom-links/:link_id', { link_id: ID }))).toEqual({
      route: '/api/v1/custom-links/:link_id',
      path: `/api/v1/custom-links/${ID}`,
    });
    expect(routeOf(req('/l/:slug', { slug: 'Ab3dE' }))).toEqual({ route: '/l/:slug', path: '/l/:slug' });
    expect(routeOf(req('/api/v1/accounts/:domain', { domain: EMAIL }))).toEqual({
      route: '/api/v1/accounts/:domain',
      path: '/api/v1/accounts/:domain',
    });
  });

  it('says nothing of a path no route matched (the catch-all of logging middleware is not a route)', () => {
    expect(routeOf(req('/{*path}', { path: EMAIL }))).toEqual({ route: null, path: null });
    expect(routeOf({} as Parameters<typeof routeOf>[0])).toEqual({ route: null, path: null });
  });
});

describe('loggerParams', () => {
  let server: Server;
  const lines: string[] = [];

  beforeAll(async () => {
    const [options] = loggerParams(loadConfig({ LOG_LEVEL: 'trace' }), { write: (line: string) => lines.push(line) })
      .pinoHttp as [Options, unknown];
    const middleware = pinoHttp(options, { write: (line: string) => lines.push(line) });
    const app = express();
    app.use((req, _res, next) => {
      (req as typeof req & { id: string }).id = 'request-1';
      next();
    });
    app.use(middleware);
    app.get('/things/:thing_id/:slug', (req, res) => {
      req.log.info(
        { headers: req.headers, email: EMAIL, nested: { authorization: KEY, transcript: 'hello' } },
        'handler',
      );
      req.log.error(
        {
          err: Object.assign(new Error(`invalid input syntax for type uuid: "${EMAIL}"`), {
            code: '22P02',
            severity: 'ERROR',
          }),
        },
        'failed',
      );
      res.json({ ok: true });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    await new Promise<void>((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      get(
        {
          port,
          host: '127.0.0.1',
          path: `/things/${ID}/secret-slug?email=${encodeURIComponent(EMAIL)}`,
          headers: { authorization: `Bearer ${KEY}`, 'x-api-key': KEY, cookie: `s=${EMAIL}` },
        },
        (res) => {
          res.resume().on('end', resolve);
        },
      ).on('error', reject);
    });
    await new Promise((resolve) => setImmediate(resolve));
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('writes a request line with the method, route, UUID-only path, query names and status', () => {
    const completed = entries().find((entry) => entry.msg === 'request completed');
    expect(completed).toMatchObject({
      req: { id: 'request-1', method: 'GET', query: ['email'] },
      res: { statusCode: 200, route: '/things/:thing_id/:slug', path: `/things/${ID}/:slug` },
    });
    expect(Object.keys(completed?.req as object).sort()).toEqual(['id', 'method', 'query']);
  });

  it('redacts headers, emails, keys and transcripts passed to a log call, and describes errors without their message', () => {
    expect(entries().find((entry) => entry.msg === 'handler')).toMatchObject({
      headers: '[redacted]',
      email: '[redacted]',
      nested: { authorization: '[redacted]', transcript: '[redacted]' },
    });
    expect(entries().find((entry) => entry.msg === 'failed')).toMatchObject({
      err: { type: 'Error', code: '22P02', message: 'Database query failed' },
    });
  });

  it('never writes the key, the email or the slug', () => {
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const text = lines.join('');
    for (const secret of [KEY, EMAIL, encodeURIComponent(EMAIL), 'secret-slug']) expect(text).not.toContain(secret);
  });
});
