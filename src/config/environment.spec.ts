import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { CONFIG_DOC_FILES, envExample, readmeWithTable } from './config-docs';
import { ConfigError, loadConfig, VARIABLES } from './environment';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      appRole: 'all',
      port: 3000,
      limits: {
        requestsPerMinute: 120,
        transcriptDailyLimit: 2000,
        linkMutationsPerMinute: 10,
        linkCreationUnitsPerHour: 5000,
      },
      thumbnails: { renderThreads: Math.min(32, availableParallelism()), renderTimeoutMs: 10000 },
      playbookApplyEnabled: true,
    });
  });

  it('defaults the key caches, the per-client limits and TRUST_PROXY (no proxy trusted)', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ apiKeyCacheTtlSeconds: 10, apiKeyNegativeCacheTtlSeconds: 60, trustProxy: false });
    expect(config.limits).toMatchObject({
      authFailuresPerClientPerMinute: 1000,
      linkOpensPerClientPerMinute: 600,
      linkOpensPerLinkPerMinute: 3000,
      thumbnailRequestsPerClientPerMinute: 1200,
    });
  });

  it.each([
    ['false', false],
    ['TRUE', true],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.0.1,uniquelocal', ['10.0.0.0/8', '192.168.0.1', 'uniquelocal']],
    ['10.0.0.0/255.0.0.0', ['10.0.0.0/255.0.0.0']],
    ['fd00::/8,::1', ['fd00::/8', '::1']],
  ])('reads TRUST_PROXY=%j as Express does', (raw, expected) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it.each(['yes please', '10.0.0.0/33', 'fd00::/129', '10.0.0.1,', 'localhost', '1.2.3.4/8/9', '::1/255.0.0.0', '101'])(
    'refuses TRUST_PROXY=%j at start',
    (raw) => {
      expect(() => loadConfig({ TRUST_PROXY: raw })).toThrow(ConfigError);
    },
  );

  it('bounds the share-card rendering settings', () => {
    expect(loadConfig({ THUMBNAIL_RENDER_THREADS: '4', THUMBNAIL_RENDER_TIMEOUT_MS: '2500' }).thumbnails).toEqual({
      renderThreads: 4,
      renderTimeoutMs: 2500,
    });
    expect(() => loadConfig({ THUMBNAIL_RENDER_THREADS: '0' })).toThrow(
      'Invalid environment variable THUMBNAIL_RENDER_THREADS="0": must be an integer between 1 and 32.',
    );
    expect(() => loadConfig({ THUMBNAIL_RENDER_TIMEOUT_MS: '50' })).toThrow(
      'Invalid environment variable THUMBNAIL_RENDER_TIMEOUT_MS="50": must be an integer between 100 and 600000.',
    );
  });

  it('serves /metrics on PORT unless METRICS_PORT names another port', () => {
    expect(loadConfig({}).operations.metricsPort).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9400' }).operations.metricsPort).toBe(9400);
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(
      new ConfigError(['METRICS_PORT (3000) must differ from PORT: it is a listener of its own.']),
    );
    expect(() => loadConfig({ METRICS_PORT: '0' })).toThrow('Invalid environment variable METRICS_PORT="0"');
  });

  it('drains 5 s within a 25 s shutdown by default (workers do not drain); the drain must leave time inside the timeout', () => {
    expect(loadConfig({})).toMatchObject({ shutdownDrainDelayMs: 5000, shutdownTimeoutMs: 25000 });
    expect(loadConfig({ SHUTDOWN_DRAIN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '0' })).toMatchObject({
      shutdownDrainDelayMs: 0,
      shutdownTimeoutMs: 0,
    });
    expect(() => loadConfig({ SHUTDOWN_DRAIN_DELAY_MS: '25000' })).toThrow(
      new ConfigError([
        'SHUTDOWN_DRAIN_DELAY_MS (25000) must be less than SHUTDOWN_TIMEOUT_MS (25000), which counts the drain too.',
      ]),
    );
    // A worker-only process serves no traffic: it never drains, and its timeout is all for its jobs.
    expect(loadConfig({ APP_ROLE: 'worker', SHUTDOWN_TIMEOUT_MS: '1000' })).toMatchObject({
      shutdownDrainDelayMs: 0,
      shutdownTimeoutMs: 1000,
    });
  });

  it('reads and parses variables, trimming trailing slashes of base URLs', () => {
    const config = loadConfig({
      APP_ROLE: 'worker',
      PORT: '8080',
      PUBLIC_BASE_URL: 'https://links.example.com/',
      PLAYBOOK_APPLY_ENABLED: 'false',
    });
    expect(config).toMatchObject({
      appRole: 'worker',
      port: 8080,
      publicBaseUrl: 'https://links.example.com',
      playbookApplyEnabled: false,
    });
  });

  it('reports every bad variable on its own line', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', APP_ROLE: 'web', REDIS_URL: 'localhost', RATE_LIMIT_PER_MINUTE: '0' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems[0]).toBe('Invalid environment variable APP_ROLE="web": must be one of all, api, worker.');
    expect(problems.map((p) => p.split('=')[0])).toEqual([
      'Invalid environment variable APP_ROLE',
      'Invalid environment variable PORT',
      'Invalid environment variable REDIS_URL',
      'Invalid environment variable RATE_LIMIT_PER_MINUTE',
    ]);
    expect(problems.every((p) => !p.includes('\n'))).toBe(true);
  });

  it('falls back to the embedded services outside production when no URL is set', () => {
    const config = loadConfig({ EMBEDDED_POSTGRES_PORT: '6000', EMBEDDED_REDIS_PORT: '6001' });
    expect(config.localServices).toEqual({
      postgres: true,
      redis: true,
      dataDir: '.data',
      postgresPort: 6000,
      redisPort: 6001,
    });
    expect(config.databaseUrl).toBe('postgres://postgres:postgres@127.0.0.1:6000/engagement');
    expect(config.redis).toEqual({ mode: 'single', url: 'redis://127.0.0.1:6001/0' });
  });

  it('uses the given URLs and runs nothing of its own when both are set', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://db.internal/app',
      REDIS_URL: 'redis://cache.internal:6379/2',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://db.internal/app',
      redis: { mode: 'single', url: 'redis://cache.internal:6379/2' },
      localServices: { postgres: false, redis: false },
    });
  });

  it('selects a Redis Cluster with REDIS_CLUSTER_NODES or a redis+cluster:// REDIS_URL', () => {
    const nodes = [
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-1.internal', port: 7001 },
      { host: '::1', port: 7002 },
    ];
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-1.internal:7001,[::1]:7002' })).toMatchObject({
      redis: { mode: 'cluster', nodes, username: null, password: null, tls: false },
      localServices: { redis: false },
    });
    expect(
      loadConfig({ REDIS_URL: 'rediss+cluster://app:s%40cret@10.0.0.1:7000,redis-1.internal:7001,[::1]:7002' }).redis,
    ).toEqual({ mode: 'cluster', nodes, username: 'app', password: 's@cret', tls: true });
    expect(loadConfig({ REDIS_URL: 'redis+cluster://10.0.0.1:7000' }).redis).toEqual({
      mode: 'cluster',
      nodes: [nodes[0]],
      username: null,
      password: null,
      tls: false,
    });
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://db/app',
        CURSOR_SECRET: 'a-cursor-secret-of-16+',
        REDIS_CLUSTER_NODES: '10.0.0.1:7000',
      }),
    ).not.toThrow();
  });

  it.each([
    [{ REDIS_CLUSTER_NODES: '10.0.0.1' }, 'Invalid environment variable REDIS_CLUSTER_NODES="10.0.0.1"'],
    [{ REDIS_CLUSTER_NODES: '10.0.0.1:7000,,' }, 'Invalid environment variable REDIS_CLUSTER_NODES'],
    [{ REDIS_CLUSTER_NODES: 'a:70000' }, 'Invalid environment variable REDIS_CLUSTER_NODES'],
    [
      { REDIS_URL: 'redis+cluster://user:secret@10.0.0.1' },
      'Invalid environment variable REDIS_URL="redis+cluster://user:***@10.0.0.1"',
    ],
    [
      { REDIS_URL: 'redis://cache:6379', REDIS_CLUSTER_NODES: '10.0.0.1:7000' },
      'REDIS_URL and REDIS_CLUSTER_NODES exclude each other: set one.',
    ],
  ])('refuses a bad Redis Cluster setting: %j', (env, problem) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigError).problems).toEqual([expect.stringContaining(problem)]);
  });

  it('never falls back in production: each missing URL is named', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', REDIS_URL: 'redis://cache:6379', CURSOR_SECRET: 'a-cursor-secret-of-16+' }),
    ).toThrow(new ConfigError(['Missing environment variable DATABASE_URL: required when NODE_ENV=production.']));
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigError).problems).toEqual([
      'Missing environment variable DATABASE_URL: required when NODE_ENV=production.',
      'Missing environment variable REDIS_URL: required when NODE_ENV=production.',
      'Missing environment variable CURSOR_SECRET: required when NODE_ENV=production.',
    ]);
  });

  it('reads CORS_ORIGINS as a list of origins, normalised as browsers send them; unset is none', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://App.Example.com, http://localhost:5173/ ,' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
  });

  it.each([
    '*',
    'app.example.com',
    'https://app.example.com/path',
    'https://app.example.com?x=1',
    'ftp://files.example.com',
    'https://user@app.example.com',
  ])('refuses CORS_ORIGINS=%s: origins only', (value) => {
    expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(
      new ConfigError([
        `Invalid environment variable CORS_ORIGINS=${JSON.stringify(value)}: must be comma-separated origins such as https://app.example.com (scheme, host and port only).`,
      ]),
    );
  });

  it('reads DATABASE_REPLICA_URLS as a list of PostgreSQL URLs (unset: none) and REPLICA_MAX_LAG_MS (1000 by default)', () => {
    expect(loadConfig({}).replicas).toEqual({ urls: [], maxLagMs: 1000 });
    expect(
      loadConfig({
        DATABASE_REPLICA_URLS: 'postgres://app@replica-1/engagement, postgresql://app@replica-2/engagement/,',
        REPLICA_MAX_LAG_MS: '250',
      }).replicas,
    ).toEqual({
      urls: ['postgres://app@replica-1/engagement', 'postgresql://app@replica-2/engagement'],
      maxLagMs: 250,
    });
    expect(() =>
      loadConfig({
        DATABASE_REPLICA_URLS: 'postgres://app:s3cret@replica-1/e,redis://app:s3cret@cache',
        REPLICA_MAX_LAG_MS: '0',
      }),
    ).toThrow(
      new ConfigError([
        'Invalid environment variable DATABASE_REPLICA_URLS="postgres://app:***@replica-1/e,redis://app:***@cache": must be a URL (postgres:, postgresql:).',
        'Invalid environment variable REPLICA_MAX_LAG_MS="0": must be an integer between 10 and 600000.',
      ]),
    );
  });

  it("never repeats a URL's password in an error", () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://admin:s3cret@db.internal/app' })).toThrow(
      new ConfigError([
        'Invalid environment variable DATABASE_URL="mysql://admin:***@db.internal/app": must be a URL (postgres:, postgresql:).',
      ]),
    );
  });

  it('declares a default for every variable that parses', () => {
    for (const variable of Object.values(VARIABLES))
      expect(() => (variable.parse as (raw: string) => unknown)(variable.default)).not.toThrow();
  });
});

describe('generated configuration docs', () => {
  it('.env.example and the README table match the declared variables (npm run docs:config rewrites both)', () => {
    expect(readFileSync(CONFIG_DOC_FILES.envExample, 'utf8')).toBe(envExample());
    const readme = readFileSync(CONFIG_DOC_FILES.readme, 'utf8');
    expect(readme).toBe(readmeWithTable(readme));
    for (const variable of Object.values(VARIABLES)) expect(readme).toContain(`| \`${variable.name}\` |`);
  });
});
