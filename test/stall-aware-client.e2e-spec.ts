import { once } from 'node:events';
import type { Socket } from 'node:net';
import type { Client } from 'pg';
import { isDependencyFailure } from '../src/common/errors/dependency-failure';
import { stallAwareClient } from '../src/common/database/stall-aware-client';
import { TcpProxy } from './support/tcp-proxy';

/**
 * The pg client the app's pool uses (data-source-options.ts) gives up on a connection that stays
 * silent while a query waits, and only then: an idle connection outlives its timer.
 */
describe('stall-aware pg client', () => {
  const READ_TIMEOUT_MS = 500;
  let proxy: TcpProxy;
  let url: string;
  let client: Client;

  beforeAll(async () => {
    ({ proxy, url } = await TcpProxy.for(process.env.DATABASE_URL!));
  });

  beforeEach(async () => {
    proxy.set('open');
    client = new (stallAwareClient(READ_TIMEOUT_MS))({ connectionString: url });
    // A lost connection is also emitted as an error (the pool listens; a bare client must).
    client.on('error', () => undefined);
    await client.connect();
  });

  afterEach(async () => {
    proxy.set('open');
    await client.end().catch(() => undefined);
  });

  afterAll(() => proxy.stop());

  it('fails a query on a stalled connection with a dependency failure once it has been silent for the read timeout', async () => {
    proxy.set('stall');
    const started = Date.now();
    const error: unknown = await client.query('SELECT 1').then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as Error | null)?.message).toBe('Connection terminated unexpectedly');
    expect(isDependencyFailure(error)).toBe(true);
    // Node may fire a timer a millisecond early; never half a timeout early.
    expect(Date.now() - started).toBeGreaterThanOrEqual(READ_TIMEOUT_MS - 50);
  });

  it('leaves an idle connection alone after its timer fires, and queries on it', async () => {
    await once(client.connection.stream as Socket, 'timeout');
    await expect(client.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  it('runs queries that answer within the read timeout', async () => {
    await expect(client.query('SELECT 1 AS one FROM pg_sleep(0.05)')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });
});
