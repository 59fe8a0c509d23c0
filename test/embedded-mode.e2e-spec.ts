import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionPage } from './support/api-types';
import { eventually } from './support/test-app';
import { assertBuilt, freePort, MAIN } from './support/worker-process';

/**
 * The newcomer's first run (README): the built server started with no DATABASE_URL / REDIS_URL in
 * an empty folder runs an embedded PostgreSQL and a redis-server under ./.data, migrates, seeds the
 * demo organization once and prints its key; the data outlives a restart; the CLI reaches the same
 * database whether or not the server runs; production never falls back.
 */

const CLI = join(__dirname, '..', 'dist/src/cli.js');
const KEY = /sk_live_[0-9A-Za-z]{32}/;

jest.setTimeout(240_000);

interface Server {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

describe('embedded mode: no URLs, two commands', () => {
  let folder: string;
  let env: Record<string, string>;
  let baseUrl: string;
  const running: Server[] = [];

  beforeAll(async () => {
    assertBuilt();
    // PostgreSQL runs as the `postgres` user when the tests run as root: the folder must be reachable.
    folder = await mkdtemp(join(tmpdir(), 'engagement-embedded-'));
    await chmod(folder, 0o755);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    env = {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      EMBEDDED_REDIS_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_DELAY_MS: '0',
    };
  });

  afterAll(async () => {
    for (const server of running) {
      if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await server.exited;
    }
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  function start(extraEnv: Record<string, string> = {}): Server {
    const child = spawn(process.execPath, [MAIN], {
      cwd: folder,
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const server = { child, stdout: () => stdout, stderr: () => stderr, exited };
    running.push(server);
    return server;
  }

  async function ready(server: Server): Promise<void> {
    await eventually(async () => {
      if (server.child.exitCode !== null) throw new Error(`server exited ${server.child.exitCode}: ${server.stderr()}`);
      return server.stdout().includes('Ready: http://localhost:');
    }, 180_000);
  }

  async function stop(server: Server): Promise<number | null> {
    server.child.kill('SIGTERM');
    return server.exited;
  }

  function cli(
    args: string[],
    extraEnv: Record<string, string> = {},
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [CLI, ...args],
        { cwd: folder, env: { ...env, ...extraEnv }, timeout: 120_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
        },
      );
    });
  }

  const sessions = (key: string) =>
    fetch(`${baseUrl}/api/v1/sessions`, { headers: { authorization: `Bearer ${key}` } });
  const postgresRunning = () => existsSync(join(folder, '.data', 'postgres', 'postmaster.pid'));
  const redisRunning = () => existsSync(join(folder, '.data', 'redis', 'redis.pid'));

  let key: string;
  let organizationId: string;
  let total: number;

  it('first start: embedded services under ./.data, migrated, demo seeded once, key printed', async () => {
    const server = start();
    await ready(server);
    const printed = server.stdout();
    expect(printed).toContain('Demo organization');
    key = KEY.exec(printed)?.[0] ?? '';
    organizationId = /Demo organization ([0-9a-f-]{36})/.exec(printed)?.[1] ?? '';
    expect(key).toMatch(KEY);
    // Three ready-to-run requests with the key.
    expect(
      printed.match(new RegExp(`curl -s -H "Authorization: Bearer ${key}" http://localhost:\\d+/api/v1/`, 'g')),
    ).toHaveLength(3);
    expect(postgresRunning()).toBe(true);
    expect(redisRunning()).toBe(true);
    // The embedded PostgreSQL is the newest supported major (README "Run it": 15 to 18).
    expect(readFileSync(join(folder, '.data', 'postgres', 'PG_VERSION'), 'utf8').trim()).toBe('18');

    const response = await sessions(key);
    expect(response.status).toBe(200);
    const body = (await response.json()) as SessionPage;
    expect(body.sessions.length).toBeGreaterThan(0);
    total = body.pagination.total;

    // The CLI reaches the same database while the server runs, and leaves the server's services running.
    const listed = await cli(['key:list', '--org', organizationId]);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { keys: unknown[] }).keys).toHaveLength(1);
    expect((await sessions(key)).status).toBe(200);

    // SIGTERM: graceful exit, and the embedded services stop with the last process using them.
    expect(await stop(server)).toBe(0);
    expect(postgresRunning()).toBe(false);
    expect(redisRunning()).toBe(false);
  });

  it('second start: the data is kept and nothing is seeded again', async () => {
    const server = start();
    await ready(server);
    expect(server.stdout()).not.toContain('Demo organization');
    const response = await sessions(key);
    expect(response.status).toBe(200);
    expect(((await response.json()) as SessionPage).pagination.total).toBe(total);
    expect(await stop(server)).toBe(0);
  });

  it('the CLI without a server starts the database itself, shares it between concurrent commands and stops it', async () => {
    const [first, second] = await Promise.all([
      cli(['org:create', '--name', 'First']),
      cli(['org:create', '--name', 'Second']),
    ]);
    expect([first.code, second.code]).toEqual([0, 0]);
    const listed = await cli(['key:list', '--org', (JSON.parse(first.stdout) as { id: string }).id]);
    expect(JSON.parse(listed.stdout)).toEqual({
      organizationId: (JSON.parse(first.stdout) as { id: string }).id,
      keys: [],
    });
    expect(postgresRunning()).toBe(false);
  });

  it('DEMO_SEED=false starts on an empty database without seeding or printing a key', async () => {
    const server = start({ DEMO_SEED: 'false', DATA_DIR: join(folder, 'unseeded') });
    await ready(server);
    expect(server.stdout()).not.toMatch(KEY);
    const listed = await cli(['key:list', '--org', organizationId], { DATA_DIR: join(folder, 'unseeded') });
    expect(JSON.parse(listed.stdout)).toEqual({ organizationId, keys: [] });
    expect(await stop(server)).toBe(0);
  });

  it('without redis-server on the PATH, one line says how to get Redis', async () => {
    const server = start({ PATH: '/nonexistent' });
    expect(await server.exited).toBe(1);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('redis-server');
    expect(lines[0]).toContain('apt-get install redis-server');
    expect(lines[0]).toContain('brew install redis');
    expect(lines[0]).toContain('docker/compose.yaml');
  });

  it('production never falls back: each missing URL is named', async () => {
    const server = start({ NODE_ENV: 'production' });
    expect(await server.exited).toBe(1);
    // As JSON lines: in production every line the process writes is JSON (issue 30 point 2).
    const lines = server
      .stderr()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: string; msg: string; problem: string });
    expect(lines.map((line) => [line.level, line.msg])).toEqual(lines.map(() => ['fatal', 'Invalid configuration']));
    expect(lines.map((line) => line.problem)).toEqual([
      'Missing environment variable DATABASE_URL: required when NODE_ENV=production.',
      'Missing environment variable REDIS_URL: required when NODE_ENV=production.',
      'Missing environment variable CURSOR_SECRET: required when NODE_ENV=production.',
    ]);
  });
});
