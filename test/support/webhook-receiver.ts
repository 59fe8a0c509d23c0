import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** The next `n` requests are answered 500 (then 204 again). */
  failNext(n: number): void;
  close(): Promise<void>;
}

/** A local webhook endpoint that records every request and answers 204 (apps allow private URLs for it). */
export async function startReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  let failures = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (failures > 0) {
        failures--;
        res.writeHead(500).end('no');
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    failNext: (n) => (failures = n),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
