import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createTestApp, eventually, type TestApp } from './support/test-app';
import { assertBuilt, exitCodeOf, freePort, startService } from './support/worker-process';

/**
 * A rolling restart of two API instances under load (docs/operations.md, "SIGTERM (rollout)"). A
 * load balancer polls each instance's /readyz every 200 ms and spreads the requests of several
 * keep-alive clients round-robin over the instances it found ready. Instance A is stopped
 * (SIGTERM) and replaced by A', then B by B'. No client sees a refused or reset connection or a
 * 5xx, and every instance exits 0. The drain is shorter than the default but longer than the
 * balancer's polling interval, as it must be in production.
 */
const DRAIN_MS = 1500;
const READINESS_POLL_MS = 200;
const CLIENTS = 4;
/** Requests each new instance must have served before the next step (it is really in rotation). */
const SERVED_PER_STEP = 20;

interface Instance {
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
}

interface Outcome {
  port: number;
  status?: number;
  error?: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends traffic only to the instances whose /readyz answered 200 at its last poll. */
class ReadinessBalancer {
  private readonly ready = new Map<number, boolean>();
  private turn = 0;
  private polling = false;
  private stopped?: Promise<void>;
  // Probes on fresh connections, as a balancer's health checks are.
  private readonly probeAgent = new http.Agent({ keepAlive: false });

  add(port: number): void {
    this.ready.set(port, false);
  }

  remove(port: number): void {
    this.ready.delete(port);
  }

  isReady(port: number): boolean {
    return this.ready.get(port) === true;
  }

  /** The next ready instance in turn, if any. */
  pick(): number | undefined {
    const ready = [...this.ready].filter(([, up]) => up).map(([port]) => port);
    if (ready.length === 0) return undefined;
    return ready[this.turn++ % ready.length];
  }

  start(): void {
    this.polling = true;
    this.stopped = (async () => {
      while (this.polling) {
        await Promise.all(
          [...this.ready.keys()].map(async (port) => {
            const up = await this.probe(port);
            if (this.ready.has(port)) this.ready.set(port, up);
          }),
        );
        await pause(READINESS_POLL_MS);
      }
    })();
  }

  async stop(): Promise<void> {
    this.polling = false;
    await this.stopped;
    this.probeAgent.destroy();
  }

  private probe(port: number): Promise<boolean> {
    return new Promise((resolve) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: '/readyz', agent: this.probeAgent, timeout: 1000 },
        (res) => {
          res.resume();
          resolve(res.statusCode === 200);
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(false));
    });
  }
}

function authenticatedGet(agent: http.Agent, port: number, key: string): Promise<Outcome> {
  return new Promise((resolve) => {
    http
      .get(
        { host: '127.0.0.1', port, path: '/api/v1/sessions', agent, headers: { authorization: `Bearer ${key}` } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ port, status: res.statusCode }));
          res.on('error', (error: NodeJS.ErrnoException) => resolve({ port, error: error.code ?? error.message }));
        },
      )
      .on('error', (error: NodeJS.ErrnoException) => resolve({ port, error: error.code ?? error.message }));
  });
}

describe('a rolling restart of two API instances under load', () => {
  let seed: TestApp;
  const started: Instance[] = [];

  beforeAll(async () => {
    assertBuilt();
    seed = await createTestApp();
  });
  afterAll(async () => {
    for (const { child } of started) if (child.exitCode === null) child.kill('SIGKILL');
    await seed.close();
  });

  async function startApi(): Promise<Instance> {
    const port = await freePort();
    const env = {
      APP_ROLE: 'api',
      DEMO_SEED: 'false',
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_DELAY_MS: String(DRAIN_MS),
      RATE_LIMIT_PER_MINUTE: '1000000',
    };
    const child = startService(port, env);
    const instance = { port, child, exited: exitCodeOf(child) };
    started.push(instance);
    return instance;
  }

  it('no client sees a refused or reset connection or a 5xx, and every instance exits 0', async () => {
    const { key } = await seed.createTenant(['sessions:read']);
    const balancer = new ReadinessBalancer();
    const outcomes: Outcome[] = [];
    const servedBy = (port: number) => outcomes.filter((o) => o.port === port && o.status === 200).length;

    const [a, b] = await Promise.all([startApi(), startApi()]);
    balancer.add(a.port);
    balancer.add(b.port);
    balancer.start();
    await eventually(() => Promise.resolve(balancer.isReady(a.port) && balancer.isReady(b.port)), 30_000, 50);

    // Clients keep their connections alive, as browsers and SDKs do.
    const clientAgent = new http.Agent({ keepAlive: true });
    let sending = true;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (sending) {
        const port = balancer.pick();
        if (port === undefined) await pause(10);
        else outcomes.push(await authenticatedGet(clientAgent, port, key));
      }
    });

    try {
      await eventually(
        () => Promise.resolve(servedBy(a.port) >= SERVED_PER_STEP && servedBy(b.port) >= SERVED_PER_STEP),
        30_000,
        20,
      );
      const replace = async (old: Instance): Promise<Instance> => {
        old.child.kill('SIGTERM');
        const successor = await startApi();
        balancer.add(successor.port);
        await eventually(() => Promise.resolve(balancer.isReady(successor.port)), 30_000, 50);
        expect(await old.exited).toBe(0);
        balancer.remove(old.port);
        await eventually(() => Promise.resolve(servedBy(successor.port) >= SERVED_PER_STEP), 30_000, 20);
        return successor;
      };
      const a2 = await replace(a);
      const b2 = await replace(b);

      sending = false;
      await Promise.all(clients);
      const failures = outcomes.filter((o) => o.error !== undefined || (o.status ?? 0) >= 500);
      expect(failures).toEqual([]);
      expect(outcomes.every((o) => o.status === 200)).toBe(true);
      for (const instance of [a, b, a2, b2]) expect(servedBy(instance.port)).toBeGreaterThanOrEqual(SERVED_PER_STEP);

      for (const instance of [a2, b2]) instance.child.kill('SIGTERM');
      expect(await Promise.all([a2.exited, b2.exited])).toEqual([0, 0]);
    } finally {
      sending = false;
      await Promise.all(clients);
      await balancer.stop();
      clientAgent.destroy();
    }
  }, 180_000);
});
