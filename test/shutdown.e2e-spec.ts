import { Controller, Get, Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type Redis from 'ioredis';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { DataSource } from 'typeorm';
import { Public } from '../src/common/auth/auth.decorators';
import { REDIS } from '../src/common/redis/redis.module';
import { createTestApp, eventually, type TestApp } from './support/test-app';

/**
 * Graceful shutdown (main.ts): closing the app stops accepting connections at once, lets a request
 * in flight finish, with its database and Redis still usable, and only then resolves.
 */

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The probe's handler waits on `release`; `entered` tells the test the request is in the handler. */
const gate = { entered: deferred(), release: deferred() };

@Controller('test-probe')
class SlowProbeController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Public()
  @Get('slow')
  async slow(): Promise<{ finished: true; database: number; redis: string }> {
    gate.entered.resolve();
    await gate.release.promise;
    // Work after the shutdown began still has its connections.
    const [{ ok }] = await this.db.query<{ ok: number }[]>('SELECT 1 AS ok');
    return { finished: true, database: ok, redis: await this.redis.ping() };
  }
}

function get(port: number, path: string): Promise<{ status: number; body: unknown; at: number }> {
  return new Promise((resolve, reject) => {
    // The default agent keeps connections alive, as a load balancer would.
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown, at: Date.now() }));
      })
      .on('error', reject);
  });
}

/** Resolves with the error code of a fresh TCP connection attempt, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('graceful shutdown', () => {
  let t: TestApp;
  let closed = false;

  beforeAll(async () => {
    t = await createTestApp({}, { controllers: [SlowProbeController] });
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    gate.release.resolve();
    if (!closed) await t.close();
  });

  it('finishes the request in flight, refuses new connections, and resolves close() after the response', async () => {
    const { port } = t.server.address() as AddressInfo;
    expect(await tryConnect(port)).toBe('connected');

    const inFlight = get(port, '/test-probe/slow');
    await gate.entered.promise;

    let closedAt = 0;
    const closing = t.app.close().then(() => {
      closedAt = Date.now();
      closed = true;
    });

    // The listener closes while the request is still held in its handler.
    await eventually(async () => (await tryConnect(port)) === 'ECONNREFUSED', 5000);
    expect(closed).toBe(false);

    gate.release.resolve();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ finished: true, database: 1, redis: 'PONG' });

    await closing;
    expect(closedAt).toBeGreaterThanOrEqual(response.at);
    expect(await tryConnect(port)).toBe('ECONNREFUSED');
  });
});
