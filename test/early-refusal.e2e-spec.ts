import { execFile } from 'node:child_process';
import http from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * A request refused before its body is read (docs/api.md §7.4: 401, 403, 429) is answered at once
 * and its connection closed after the answer, so a client streaming a large body (or claiming
 * to) ties up nothing. Raw sockets: the point is what happens on the wire.
 */

const MIB = 1024 * 1024;
const CAMPAIGNS = '/api/v1/custom-link-campaigns';
/** Well above the time a local answer takes; far below what 5 MiB at a trickle would take to drain. */
const PROMPT_MS = 2000;
/** A refused request's connection lingers up to 2 s for the rest of its body (lingering-close.ts). */
const CLOSED_WITHIN_MS = PROMPT_MS + 1500;

interface Exchange {
  /** Everything the server sent. */
  received: string;
  /** When the server's first bytes arrived, and when the socket closed (ms after the request began). */
  answeredAfterMs: number;
  closedAfterMs: number;
}

describe('early refusals close the connection', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' });
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    port = (t.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Sends `head` and the start of a body, then holds the socket open until the server closes it. */
  function exchange(head: string, bodyStart: string): Promise<Exchange> {
    return new Promise((resolve, reject) => {
      const socket: Socket = connect(port, '127.0.0.1');
      const started = Date.now();
      let received = '';
      let answeredAfterMs = -1;
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`the server kept the connection open; it sent: ${received.slice(0, 300)}`));
      }, PROMPT_MS * 2);
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        if (answeredAfterMs < 0) answeredAfterMs = Date.now() - started;
        received += chunk;
      });
      // A reset after the answer is fine: the client stopped sending, the server stopped reading.
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ received, answeredAfterMs, closedAfterMs: Date.now() - started });
      });
      socket.write(`${head}\r\n\r\n${bodyStart}`);
    });
  }

  const post = (headers: string[]) =>
    [
      `POST ${CAMPAIGNS} HTTP/1.1`,
      'Host: api.test',
      'Connection: keep-alive',
      'Content-Type: application/json',
      `Content-Length: ${5 * MIB}`,
      ...headers,
    ].join('\r\n');

  const statusLine = (received: string) => received.split('\r\n')[0];
  const headerOf = (received: string, name: string) =>
    new RegExp(`\\r\\n${name}: ([^\\r]*)\\r\\n`, 'i').exec(received)?.[1];
  const bodyOf = (received: string) => received.slice(received.indexOf('\r\n\r\n') + 4);

  it('401: a request without a key declaring 5 MiB and sending a few bytes gets its answer at once, and the socket closes', async () => {
    const { received, answeredAfterMs, closedAfterMs } = await exchange(post([]), '{"name":"');
    expect(statusLine(received)).toBe('HTTP/1.1 401 Unauthorized');
    expect(headerOf(received, 'Connection')).toBe('close');
    expect(JSON.parse(bodyOf(received))).toEqual({ detail: 'API key required or invalid.' });
    expect(answeredAfterMs).toBeLessThan(PROMPT_MS);
    expect(closedAfterMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('403: the same with a key that lacks the scope', async () => {
    const reader = (await t.createTenant(['custom_links:read'])).key;
    const { received, closedAfterMs } = await exchange(post([`x-api-key: ${reader}`]), '{"name":"');
    expect(statusLine(received)).toBe('HTTP/1.1 403 Forbidden');
    expect(headerOf(received, 'Connection')).toBe('close');
    expect(closedAfterMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('413: an authenticated request declaring more than its route takes is refused before its body is read, and the socket closes', async () => {
    const writer = (await t.createTenant(['custom_links:write'])).key;
    const { received, answeredAfterMs, closedAfterMs } = await exchange(post([`x-api-key: ${writer}`]), '{"name":"');
    expect(statusLine(received)).toBe('HTTP/1.1 413 Payload Too Large');
    expect(headerOf(received, 'Connection')).toBe('close');
    expect(JSON.parse(bodyOf(received))).toEqual({ detail: 'Request body too large.' });
    expect(answeredAfterMs).toBeLessThan(PROMPT_MS);
    expect(closedAfterMs).toBeLessThan(CLOSED_WITHIN_MS);
  });

  it('keeps the connection alive when the refused request had no body left to send', async () => {
    const socket = connect(port, '127.0.0.1');
    try {
      socket.setEncoding('utf8');
      let received = '';
      socket.on('data', (chunk: string) => (received += chunk));
      const request = `GET ${CAMPAIGNS} HTTP/1.1\r\nHost: api.test\r\nConnection: keep-alive\r\n\r\n`;
      socket.write(request);
      const deadline = Date.now() + PROMPT_MS;
      while (!received.includes('API key required') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(statusLine(received)).toBe('HTTP/1.1 401 Unauthorized');
      expect(headerOf(received, 'Connection')).toBe('keep-alive');
      // A second request on the same connection is answered.
      received = '';
      socket.write(request);
      while (!received.includes('API key required') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(statusLine(received)).toBe('HTTP/1.1 401 Unauthorized');
    } finally {
      socket.destroy();
    }
  });

  describe('lingering close: the answer reaches a client still sending its body (issue 30 point 3)', () => {
    const body = Buffer.alloc(5 * MIB, 'a');

    it('a Node http client writing 5 MiB without a key reads the 401', async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              path: CAMPAIGNS,
              method: 'POST',
              agent: false,
              headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
            },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
            },
          );
          req.on('error', reject);
          // Still sending well after the answer: 80 chunks of 64 KiB, 10 ms apart.
          void (async () => {
            for (let offset = 0; offset < body.length && !req.destroyed; offset += 64 * 1024) {
              req.write(body.subarray(offset, offset + 64 * 1024));
              await new Promise((resolve) => setTimeout(resolve, 10));
            }
            req.end();
          })();
        });
        expect(answer).toEqual({ status: 401, body: JSON.stringify({ detail: 'API key required or invalid.' }) });
      }
    });

    it('curl sending 5 MiB without a key reads the 401', async () => {
      const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
        execFile(
          'curl',
          [
            '-sS',
            '-o',
            '-',
            '-w',
            '\n%{http_code}',
            '-H',
            'Content-Type: application/json',
            '-H',
            'Expect:',
            '--data-binary',
            '@-',
            `http://127.0.0.1:${port}${CAMPAIGNS}`,
          ],
          { encoding: 'utf8' },
          (error, out, err) => (error ? reject(new Error(`${error.message} ${err}`)) : resolve({ stdout: out })),
        ).stdin!.end(body),
      );
      expect(stdout.split('\n')).toEqual([JSON.stringify({ detail: 'API key required or invalid.' }), '401']);
    });
  });
});
