import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { LOGO_FETCH_USER_AGENT, LogoFetcher, type LogoFetchResult } from './logo-fetcher';

// A real 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const MiB = 1024 * 1024;

interface TestServer {
  port: number;
  url(path?: string): string;
  requests: http.IncomingMessage[];
  connections: number;
}

const servers: http.Server[] = [];

async function startServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, server: TestServer) => void,
  host = '127.0.0.1',
): Promise<TestServer> {
  const server = http.createServer();
  servers.push(server);
  const state: TestServer = {
    port: 0,
    url: (path = '/logo.png') => `http://${host}:${state.port}${path}`,
    requests: [],
    connections: 0,
  };
  server.on('connection', () => state.connections++);
  server.on('request', (req, res) => {
    state.requests.push(req);
    handler(req, res, state);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  state.port = (server.address() as AddressInfo).port;
  return state;
}

function servePng(_req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'image/png', 'set-cookie': 'tracking=1' });
  res.end(PNG);
}

function failure(code: 'logo_fetch_failed' | 'logo_invalid_image'): Partial<LogoFetchResult> {
  return expect.objectContaining({ ok: false, code, message: expect.any(String) }) as Partial<LogoFetchResult>;
}

const allowAll = new LogoFetcher({ isAllowedAddress: () => true });
const onlyLoopbackOne = new LogoFetcher({ isAllowedAddress: (ip) => ip === '127.0.0.1' });

afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

describe('LogoFetcher', () => {
  describe('address policy', () => {
    it('refuses a loopback URL under the default policy without connecting', async () => {
      const server = await startServer(servePng);

      const result = await new LogoFetcher().fetch(server.url());

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(server.connections).toBe(0);
      expect(server.requests).toHaveLength(0);
    });

    it.each([
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/logo.png',
      'http://[::1]/logo.png',
      'http://[::ffff:127.0.0.1]/logo.png',
      'http://[fd00::1]/logo.png',
      'http://0x7f.1/logo.png', // WHATWG URL parsing turns this into 127.0.0.1
      'http://2130706433/logo.png',
      'https://192.168.0.1/logo.png',
    ])('refuses the literal address in %s without a request', async (url) => {
      const httpRequest = jest.spyOn(http, 'request');
      const httpsRequest = jest.spyOn(https, 'request');

      const result = await new LogoFetcher().fetch(url);

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(httpRequest).not.toHaveBeenCalled();
      expect(httpsRequest).not.toHaveBeenCalled();
    });

    it('refuses a host when any of its addresses is not allowed, and does not echo the address', async () => {
      jest.spyOn(dns.promises, 'lookup').mockResolvedValue([
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ] as never);
      const httpRequest = jest.spyOn(http, 'request');

      const result = await new LogoFetcher().fetch('http://mixed.example/logo.png');

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(JSON.stringify(result)).not.toContain('10.0.0.1');
      expect(JSON.stringify(result)).toContain('mixed.example');
      expect(httpRequest).not.toHaveBeenCalled();
    });

    it('connects to the validated address without resolving the host again', async () => {
      const server = await startServer(servePng);
      const lookup = jest
        .spyOn(dns.promises, 'lookup')
        .mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);

      // logo.example does not resolve in real DNS: success means the pinned address was used.
      const result = await onlyLoopbackOne.fetch(`http://logo.example:${server.port}/logo.png`);

      expect(result).toEqual({ ok: true, bytes: PNG, mimeType: 'image/png' });
      expect(lookup).toHaveBeenCalledTimes(1);
      expect(lookup).toHaveBeenCalledWith('logo.example', { all: true });
      expect(server.requests[0].headers.host).toBe(`logo.example:${server.port}`);
    });

    it('pins https connections to the validated address too', async () => {
      // A plain-http server: the TLS handshake fails, but only after connecting where we allowed.
      const server = await startServer(servePng);
      jest.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);

      const result = await onlyLoopbackOne.fetch(`https://logo.example:${server.port}/logo.png`);

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(server.connections).toBe(1);
    });

    it('fails cleanly when the host does not resolve', async () => {
      jest
        .spyOn(dns.promises, 'lookup')
        .mockRejectedValue(Object.assign(new Error('getaddrinfo ENOTFOUND nope.example'), { code: 'ENOTFOUND' }));

      const result = await allowAll.fetch('http://nope.example/logo.png');

      expect(result).toEqual(failure('logo_fetch_failed'));
    });
  });

  describe('URLs', () => {
    it.each([
      'ftp://example.com/logo.png',
      'file:///etc/passwd',
      'data:image/png;base64,iVBORw0KGgo=',
      'javascript:alert(1)',
      'not a url',
      '',
    ])('refuses %j without a request', async (url) => {
      const httpRequest = jest.spyOn(http, 'request');

      const result = await allowAll.fetch(url);

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(httpRequest).not.toHaveBeenCalled();
    });

    it('refuses a URL carrying credentials', async () => {
      const server = await startServer(servePng);

      const result = await allowAll.fetch(`http://user:secret@127.0.0.1:${server.port}/logo.png`);

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(server.connections).toBe(0);
    });
  });

  describe('fetching', () => {
    it('fetches a PNG with a plain GET: our User-Agent, no cookies, no credentials', async () => {
      const server = await startServer(servePng);

      const result = await allowAll.fetch(server.url('/logo.png?size=large'));

      expect(result).toEqual({ ok: true, bytes: PNG, mimeType: 'image/png' });
      const [req] = server.requests;
      expect(req.method).toBe('GET');
      expect(req.url).toBe('/logo.png?size=large');
      expect(req.headers['user-agent']).toBe(LOGO_FETCH_USER_AGENT);
      expect(req.headers.cookie).toBeUndefined();
      expect(req.headers.authorization).toBeUndefined();
    });

    it('accepts a body without a Content-Type when its bytes are an image', async () => {
      const server = await startServer((_req, res) => res.end(PNG));

      await expect(allowAll.fetch(server.url())).resolves.toEqual({ ok: true, bytes: PNG, mimeType: 'image/png' });
    });

    it('reports the type the bytes have, not the one the server claims', async () => {
      const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(gif);
      });

      await expect(allowAll.fetch(server.url())).resolves.toEqual({ ok: true, bytes: gif, mimeType: 'image/gif' });
    });

    it.each([403, 404, 500, 304])('fails on HTTP %i', async (status) => {
      const server = await startServer((_req, res) => {
        res.writeHead(status);
        res.end();
      });

      const result = await allowAll.fetch(server.url());

      expect(result).toEqual(failure('logo_fetch_failed'));
    });

    it('fails when nothing listens on the port, without echoing socket errors', async () => {
      const server = await startServer(servePng);
      const url = server.url();
      await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));

      const result = await allowAll.fetch(url);

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(JSON.stringify(result)).not.toMatch(/ECONNREFUSED/);
    });
  });

  describe('redirects', () => {
    it('follows a relative redirect on an allowed host', async () => {
      const server = await startServer((req, res) => {
        if (req.url === '/start') {
          res.writeHead(302, { location: '/logo.png' });
          res.end();
        } else {
          servePng(req, res);
        }
      });

      await expect(onlyLoopbackOne.fetch(server.url('/start'))).resolves.toEqual({
        ok: true,
        bytes: PNG,
        mimeType: 'image/png',
      });
      expect(server.requests.map((r) => r.url)).toEqual(['/start', '/logo.png']);
    });

    it('refuses a redirect to an address the policy refuses, without connecting to it', async () => {
      const target = await startServer(servePng, '127.0.0.2');
      const origin = await startServer((_req, res) => {
        res.writeHead(301, { location: target.url() });
        res.end();
      });

      const result = await onlyLoopbackOne.fetch(origin.url('/start'));

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(origin.requests).toHaveLength(1);
      expect(target.connections).toBe(0);
    });

    it('refuses a redirect to a host name that resolves to a refused address', async () => {
      const origin = await startServer((_req, res) => {
        res.writeHead(307, { location: 'http://metadata.example/latest' });
        res.end();
      });
      jest.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '169.254.169.254', family: 4 }] as never);

      const result = await onlyLoopbackOne.fetch(origin.url('/start'));

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(JSON.stringify(result)).not.toContain('169.254');
    });

    it('refuses a redirect to a non-http scheme', async () => {
      const origin = await startServer((_req, res) => {
        res.writeHead(302, { location: 'file:///etc/passwd' });
        res.end();
      });

      await expect(allowAll.fetch(origin.url())).resolves.toEqual(failure('logo_fetch_failed'));
    });

    it('gives up after 3 redirects', async () => {
      const server = await startServer((req, res) => {
        res.writeHead(302, { location: `/hop${server.requests.length}` });
        res.end();
      });

      const result = await allowAll.fetch(server.url('/start'));

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(server.requests.map((r) => r.url)).toEqual(['/start', '/hop1', '/hop2', '/hop3']);
    });

    it('follows exactly maxRedirects redirects', async () => {
      const server = await startServer((req, res) => {
        if (server.requests.length <= 3) {
          res.writeHead(302, { location: `/hop${server.requests.length}` });
          res.end();
        } else {
          servePng(req, res);
        }
      });

      await expect(allowAll.fetch(server.url('/start'))).resolves.toMatchObject({ ok: true });
      expect(server.requests).toHaveLength(4);
    });

    it('fails on a redirect without a Location', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(302);
        res.end();
      });

      await expect(allowAll.fetch(server.url())).resolves.toEqual(failure('logo_fetch_failed'));
    });
  });

  describe('size limit', () => {
    it('stops reading a streamed body past 2 MiB', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' }); // chunked: no Content-Length
        res.write(PNG);
        res.end(Buffer.alloc(2 * MiB));
      });

      const result = await allowAll.fetch(server.url());

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(result.ok || result.message).toMatch(/larger than/);
    });

    it('refuses a declared Content-Length over 2 MiB before reading', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(3 * MiB) });
        res.write(PNG); // never completes; the fetcher must not wait for the rest
      });

      const result = await allowAll.fetch(server.url());

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(result.ok || result.message).toMatch(/larger than/);
    });

    it('accepts a body of exactly 2 MiB', async () => {
      const body = Buffer.alloc(2 * MiB);
      PNG.copy(body);
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(body);
      });

      const result = await allowAll.fetch(server.url());

      expect(result).toMatchObject({ ok: true, mimeType: 'image/png' });
      expect(result.ok && result.bytes.length).toBe(2 * MiB);
    });
  });

  describe('image checks', () => {
    it('refuses HTML served as image/png', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end('<!doctype html><html><body>not a logo</body></html>');
      });

      await expect(allowAll.fetch(server.url())).resolves.toEqual(failure('logo_invalid_image'));
    });

    it('refuses a text/html response even when the bytes are a PNG', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(PNG);
      });

      await expect(allowAll.fetch(server.url())).resolves.toEqual(failure('logo_invalid_image'));
    });

    it('refuses an SVG logo', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        res.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
      });

      await expect(allowAll.fetch(server.url())).resolves.toEqual(failure('logo_invalid_image'));
    });

    it('refuses an image whose header declares more than 4096 pixels a side, before any decoding', async () => {
      const bomb = Buffer.from(PNG);
      bomb.writeUInt32BE(100_000, 16); // IHDR width
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(bomb);
      });

      const result = await allowAll.fetch(server.url());

      expect(result).toEqual(failure('logo_invalid_image'));
      expect(result.ok || result.message).toMatch(/larger than 4096x4096/);
    });

    it('refuses an empty body', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end();
      });

      await expect(allowAll.fetch(server.url())).resolves.toEqual(failure('logo_invalid_image'));
    });
  });

  describe('deadline', () => {
    it('times out a server that never answers', async () => {
      const server = await startServer(() => undefined);
      const started = Date.now();

      const result = await new LogoFetcher({ timeoutMs: 200, isAllowedAddress: () => true }).fetch(server.url());

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(result.ok || result.message).toMatch(/timed out/);
      expect(Date.now() - started).toBeLessThan(1500);
    });

    it('times out a body that trickles in', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(PNG.subarray(0, 8));
        const drip = setInterval(() => res.write(Buffer.alloc(1)), 20);
        res.on('close', () => clearInterval(drip));
      });

      const result = await new LogoFetcher({ timeoutMs: 200, isAllowedAddress: () => true }).fetch(server.url());

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(result.ok || result.message).toMatch(/timed out/);
    });

    it('counts the deadline across redirects, not per hop', async () => {
      const server = await startServer((req, res) => {
        // Each hop answers after 80 ms: three hops fit no 200 ms overall deadline.
        setTimeout(() => {
          res.writeHead(302, { location: `/hop${server.requests.length}` });
          res.end();
        }, 80);
      });

      const result = await new LogoFetcher({ timeoutMs: 200, isAllowedAddress: () => true }).fetch(server.url());

      expect(result).toEqual(failure('logo_fetch_failed'));
      expect(result.ok || result.message).toMatch(/timed out/);
    });
  });
});
