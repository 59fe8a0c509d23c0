import { createServer as createNetServer, connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * METRICS_PORT (issue 30 point 4): /metrics on a listener of its own, which no Ingress routes
 * (deploy/ sets 9400 and scrapes it with a PodMonitor), and 404 on PORT; METRICS_TOKEN still
 * applies there; the listener closes with the app.
 */
const METRICS_TOKEN = 'metrics-token-0123456789';

/** A port nothing listens on right now (the OS picks it; released before the app takes it). */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}

const refusesConnections = (port: number) =>
  new Promise<boolean>((settle) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), settle(false)));
    socket.once('error', () => settle(true));
  });

describe('METRICS_PORT', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ METRICS_PORT: String(port) });
  });
  afterAll(() => t?.close());

  it('serves GET /metrics on its own port and nothing else there', async () => {
    const metrics = await request(`http://127.0.0.1:${port}`).get('/metrics').expect(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/^engagement_db_pool_max \d+$/m);
    await request(`http://127.0.0.1:${port}`).get('/healthz').expect(404);
    await request(`http://127.0.0.1:${port}`).get('/api/v1/sessions').expect(404);
    await request(`http://127.0.0.1:${port}`).post('/metrics').expect(404);
  });

  it('answers 404 for /metrics on PORT, which keeps serving the API and the probes', async () => {
    await request(t.server).get('/metrics').expect(404);
    await request(t.server).get('/healthz').expect(200);
  });

  it('with METRICS_TOKEN: 401 without the token, 200 with it; closed with the app', async () => {
    const tokenPort = await freePort();
    const secured = await createTestApp({ METRICS_PORT: String(tokenPort), METRICS_TOKEN });
    try {
      const missing = await request(`http://127.0.0.1:${tokenPort}`).get('/metrics').expect(401);
      expect(missing.text).not.toContain('engagement_');
      await request(`http://127.0.0.1:${tokenPort}`)
        .get('/metrics')
        .set('Authorization', `Bearer ${METRICS_TOKEN}x`)
        .expect(401);
      const res = await request(`http://127.0.0.1:${tokenPort}`)
        .get('/metrics')
        .set('Authorization', `Bearer ${METRICS_TOKEN}`)
        .expect(200);
      expect(res.text).toContain('engagement_queue_up');
    } finally {
      await secured.close();
    }
    expect(await refusesConnections(tokenPort)).toBe(true);
  });

  it('METRICS_ENABLED=false opens no metrics listener', async () => {
    const offPort = await freePort();
    const off = await createTestApp({ METRICS_PORT: String(offPort), METRICS_ENABLED: 'false' });
    try {
      expect(await refusesConnections(offPort)).toBe(true);
      await request(off.server).get('/metrics').expect(404);
    } finally {
      await off.close();
    }
  });
});
