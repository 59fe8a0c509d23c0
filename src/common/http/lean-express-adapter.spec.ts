import type { Express } from 'express';
import { get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LeanExpressAdapter } from './lean-express-adapter';

describe('LeanExpressAdapter', () => {
  let adapter: LeanExpressAdapter;
  let server: Server;
  let app: Express;

  beforeEach(async () => {
    adapter = new LeanExpressAdapter();
    adapter.initHttpServer({});
    app = adapter.getInstance<Express>();
    server = adapter.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const fetchJson = (path: string) =>
    new Promise<{ status: number; type: string | undefined; body: unknown }>((resolve, reject) => {
      get(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: JSON.parse(text) }),
        );
      }).on('error', reject);
    });

  it('builds requests and responses with Express prototypes before Express sees them', async () => {
    const seen: { req: object | null; res: object | null } = { req: null, res: null };
    // Runs before Express's own request listener, which re-parents whatever it is given.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      seen.req = Object.getPrototypeOf(req) as object;
      seen.res = Object.getPrototypeOf(res) as object;
    });
    app.get('/probe', (req, res) => {
      res.json({ path: req.path, host: req.get('host') !== undefined });
    });

    const reply = await fetchJson('/probe?x=1');

    expect(seen.req).toBe(app.request);
    expect(seen.res).toBe(app.response);
    expect(reply).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: { path: '/probe', host: true },
    });
  });

  it('sends a plain object as one JSON body with the status it is given', async () => {
    app.get('/reply', (_req, res) => adapter.reply(res, { ok: true, items: [1, 2] }, 201));

    expect(await fetchJson('/reply')).toEqual({
      status: 201,
      type: 'application/json; charset=utf-8',
      body: { ok: true, items: [1, 2] },
    });
  });
});
