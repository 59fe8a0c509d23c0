import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { writeJsonLine } from '../json-line';

/**
 * The one place that reads process.env. Every variable is declared here with its default and a
 * parser; `loadConfig` reports every bad variable on its own line instead of failing on the first.
 */
export type AppRole = 'api' | 'worker' | 'all';

export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  appRole: AppRole;
  port: number;
  databaseUrl: string;
  databasePoolSize: number;
  /** One Redis (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES, or a redis+cluster:// REDIS_URL). */
  redis: RedisTarget;
  /** Streaming replicas that serve authenticated GET reads (docs/scaling.md "Read replicas"); empty: none. */
  replicas: ReplicasConfig;
  /** Which services this process runs itself (development without URLs), and where. */
  localServices: LocalServicesConfig;
  demoSeed: boolean;
  publicBaseUrl: string;
  experienceBaseUrl: string;
  agentBaseUrl: string;
  /** Browser origins allowed to call the API (CORS); empty: no CORS headers at all. */
  corsOrigins: string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  apiKeyCacheTtlSeconds: number;
  apiKeyNegativeCacheTtlSeconds: number;
  /** Express's `trust proxy` setting: which proxies' X-Forwarded-For decides the client address. */
  trustProxy: TrustProxy;
  /** The request header (lower case) in which a trusted proxy reports the client's country; null: none. */
  geoCountryHeader: string | null;
  /** From the first SIGTERM/SIGINT: how long the server keeps serving with /readyz at 503 (always 0 for APP_ROLE=worker). */
  shutdownDrainDelayMs: number;
  /** From the first SIGTERM/SIGINT, drain included: the most the shutdown may take. */
  shutdownTimeoutMs: number;
  queuePrefix: string;
  queueLockDurationMs: number;
  queueStalledIntervalMs: number;
  jobLeaseMs: number;
  jobReaperIntervalMs: number;
  idempotencyLeaseMs: number;
  limits: {
    requestsPerMinute: number;
    transcriptDailyLimit: number;
    linkMutationsPerMinute: number;
    linkCreationUnitsPerHour: number;
    linkCreationUnitsPerDay: number;
    thumbnailRenderUnitsPerHour: number;
    thumbnailRenderUnitsPerDay: number;
    authFailuresPerClientPerMinute: number;
    linkOpensPerClientPerMinute: number;
    linkOpensPerLinkPerMinute: number;
    thumbnailRequestsPerClientPerMinute: number;
  };
  thumbnails: {
    renderThreads: number;
    renderTimeoutMs: number;
  };
  playbookApplyEnabled: boolean;
  webhooks: WebhooksConfig;
  /** Signs list cursors: a cursor edited, or minted for another organization or list, is refused. */
  cursorSecret: string;
  timeouts: TimeoutsConfig;
  operations: OperationsConfig;
}

export interface ReplicasConfig {
  urls: string[];
  /** A replica further behind the primary than this serves no reads until it catches up. */
  maxLagMs: number;
}

/** Webhook endpoints and deliveries (issue 20). */
export interface WebhooksConfig {
  /** Development and tests only: endpoint URLs may be http and private addresses. */
  allowPrivateUrls: boolean;
  /**
   * The only ports an endpoint URL may name (443 and 80 by default): the ports the worker's egress
   * NetworkPolicy opens (deploy/base/network-policies.yaml). Not applied with allowPrivateUrls.
   */
  allowedPorts: number[];
  /** The unit of the retry schedule (5 s, 5 min, ... are 1, 60, ... of it). */
  retryBaseMs: number;
  /** How often each worker takes the due deliveries nobody sends. */
  dispatchIntervalMs: number;
}

/** Who may read the operator endpoints (docs/operations.md "Metrics and alerts"). */
export interface OperationsConfig {
  metricsEnabled: boolean;
  /** null: /metrics is served on PORT; else only on this port, by a listener of its own. */
  metricsPort: number | null;
  /** null: /metrics needs no token. */
  metricsToken: string | null;
  /** /docs and /api/v1/openapi.json. */
  docsEnabled: boolean;
  /** null: no queue board (/admin/queues answers 404). */
  adminToken: string | null;
  /** OTEL_TRACES_EXPORTER as given; tracing runs only when it names an exporter. */
  tracesExporter: string | null;
}

/** How long this process waits on each dependency and client before giving up (docs/operations.md). */
export interface TimeoutsConfig {
  databaseStatementMs: number;
  databaseLockMs: number;
  databaseIdleInTransactionMs: number;
  databaseConnectMs: number;
  redisCommandMs: number;
  redisConnectMs: number;
  httpHeadersMs: number;
  httpRequestMs: number;
  httpKeepAliveMs: number;
}

export type RedisTarget =
  | { mode: 'single'; url: string }
  | {
      mode: 'cluster';
      /** Seed nodes: the client discovers the others and the slot map from any one of them. */
      nodes: RedisNode[];
      username: string | null;
      password: string | null;
      tls: boolean;
    };

export interface RedisNode {
  host: string;
  port: number;
}

/** false (the socket's peer is the client), true (trust every proxy), a hop count, or proxy addresses / CIDR ranges. */
export type TrustProxy = boolean | number | string[];

export interface LocalServicesConfig {
  postgres: boolean;
  redis: boolean;
  dataDir: string;
  postgresPort: number;
  redisPort: number;
}

/** The embedded services' addresses, derived from their ports. */
export const embeddedPostgresUrl = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/engagement`;
export const embeddedRedisUrl = (port: number) => `redis://127.0.0.1:${port}/0`;

type Parser<T> = (raw: string) => T;

/** A URL's password is a secret: error messages show `user:***@`. */
const withoutPassword = (raw: string) => raw.replace(/(\/\/[^/@:\s]*:)[^/@\s]*@/g, '$1***@');

class InvalidVariable extends Error {}

const integer =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new InvalidVariable(`must be an integer between ${min} and ${max}`);
    const value = Number(raw);
    if (value < min || value > max) throw new InvalidVariable(`must be an integer between ${min} and ${max}`);
    return value;
  };

const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw) => {
    if (!(values as string[]).includes(raw)) throw new InvalidVariable(`must be one of ${values.join(', ')}`);
    return raw as T;
  };

const boolean: Parser<boolean> = (raw) => {
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new InvalidVariable('must be true or false');
};

const url =
  (...protocols: string[]): Parser<string> =>
  (raw) => {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new InvalidVariable(`must be a URL (${protocols.join(', ')})`);
    }
    if (!protocols.includes(parsed.protocol)) throw new InvalidVariable(`must be a URL (${protocols.join(', ')})`);
    return raw.replace(/\/+$/, '');
  };

/** `host:port` or `[ipv6]:port`. */
function redisNode(entry: string): RedisNode | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(entry.trim());
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1] ?? match[2], port };
}

const CLUSTER_NODES_PROBLEM = 'must be comma-separated host:port of Redis Cluster nodes';

/** REDIS_CLUSTER_NODES: one or more seed nodes. */
const clusterNodes: Parser<RedisNode[]> = (raw) => {
  const nodes = raw.split(',').map(redisNode);
  if (nodes.some((node) => node === null)) throw new InvalidVariable(CLUSTER_NODES_PROBLEM);
  return nodes as RedisNode[];
};

/**
 * REDIS_URL: redis:// or rediss:// for one Redis, or redis+cluster://[user:password@]host:port,host:port
 * (rediss+cluster:// with TLS) for a cluster, whose several hosts the URL class cannot hold.
 */
const redisTarget: Parser<RedisTarget> = (raw) => {
  const cluster = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^@/]+)\/?$/.exec(raw.trim());
  if (!cluster) return { mode: 'single', url: url('redis:', 'rediss:')(raw) };
  const [, scheme, userInfo, hosts] = cluster;
  const [username, password] = userInfo === undefined ? [] : userInfo.split(/:(.*)/s);
  return {
    mode: 'cluster',
    nodes: clusterNodes(hosts),
    username: username ? decodeURIComponent(username) : null,
    password: password ? decodeURIComponent(password) : null,
    tls: scheme === 'rediss',
  };
};

/** A comma-separated list of origins (scheme://host[:port]), each normalised as browsers send it. */
const origins: Parser<string[]> = (raw) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      let parsed: URL | null = null;
      try {
        parsed = new URL(item);
      } catch {
        // reported below
      }
      if (
        !parsed ||
        !['http:', 'https:'].includes(parsed.protocol) ||
        parsed.pathname !== '/' ||
        parsed.search ||
        parsed.hash ||
        parsed.username
      ) {
        throw new InvalidVariable(
          'must be comma-separated origins such as https://app.example.com (scheme, host and port only)',
        );
      }
      return parsed.origin;
    });

interface Variable<T> {
  name: string;
  /** '' means unset: the parser decides what that stands for. */
  default: string;
  parse: Parser<T>;
  /** What the variable does, for .env.example and the README's configuration table. */
  doc: string;
}

const variable = <T>(name: string, defaultValue: string, parse: Parser<T>, doc: string): Variable<T> => ({
  name,
  default: defaultValue,
  parse,
  doc,
});

/** Names Express's `trust proxy` accepts for address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, `address/prefix` or `address/netmask` (IPv4), or a named range, as Express's `trust proxy` reads them. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/** Express's `trust proxy` values, validated here so that a typo stops the process at start rather than at the first request. */
const trustProxy: Parser<TrustProxy> = (raw) => {
  const value = raw.trim();
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (/^\d+$/.test(value)) return integer(0, 100)(value);
  const entries = value.split(',').map((entry) => entry.trim());
  if (!entries.every(isProxyAddress)) {
    throw new InvalidVariable(
      `must be true, false, a number of proxy hops, or comma-separated addresses, CIDR ranges or ${PROXY_RANGE_NAMES.join(', ')}`,
    );
  }
  return entries;
};

/** A comma-separated list of TCP ports, at least one, in the order given (duplicates dropped). */
const ports: Parser<number[]> = (raw) => {
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => !/^\d+$/.test(entry) || Number(entry) < 1 || Number(entry) > 65535))
    throw new InvalidVariable('must be comma-separated port numbers between 1 and 65535');
  return [...new Set(entries.map(Number))];
};

/** A comma-separated list of URLs of these protocols, in the order given (duplicates dropped). */
const urls =
  (...protocols: string[]): Parser<string[]> =>
  (raw) => [
    ...new Set(
      raw
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
        .map(url(...protocols)),
    ),
  ];

/** A shared secret an operator sends as a bearer token: long enough not to be guessed. */
const token: Parser<string> = (raw) => {
  if (raw.length < 16 || /\s/.test(raw)) throw new InvalidVariable('must be at least 16 characters without spaces');
  return raw;
};

/** An HTTP header name (a token), lower case as Node presents request headers. */
const headerName: Parser<string> = (raw) => {
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(raw.trim())) throw new InvalidVariable('must be an HTTP header name');
  return raw.trim().toLowerCase();
};

/** Unset stays null (the caller decides the fallback); otherwise the value must parse. */
const optional =
  <T>(parse: Parser<T>): Parser<T | null> =>
  (raw) =>
    raw.trim() === '' ? null : parse(raw);

/** A thread count; unset, one per CPU this process may use (os.availableParallelism: its CPU affinity and cgroup CPU quota). */
const threadsPerCore =
  (max: number): Parser<number> =>
  (raw) =>
    raw.trim() === '' ? Math.min(max, availableParallelism()) : integer(1, max)(raw);

/** Outside production only: cursors stay valid across restarts without configuration. */
const DEVELOPMENT_CURSOR_SECRET = 'development-cursor-secret-not-for-production';

/** Declared in the order .env.example and the README list them. */
export const VARIABLES = {
  nodeEnv: variable(
    'NODE_ENV',
    'development',
    oneOf('development', 'production', 'test'),
    'development | production | test. Production never falls back to embedded services.',
  ),
  appRole: variable(
    'APP_ROLE',
    'all',
    oneOf<AppRole>('all', 'api', 'worker'),
    'What this process runs: all (HTTP API and queue workers), api (HTTP only) or worker (queues only).',
  ),
  port: variable('PORT', '3000', integer(1, 65535), 'HTTP port of the API (workers serve their probes on it).'),
  databaseUrl: variable(
    'DATABASE_URL',
    '',
    optional(url('postgres:', 'postgresql:')),
    'PostgreSQL URL. Unset outside production: an embedded PostgreSQL under DATA_DIR, migrated at start. Required in production.',
  ),
  databasePoolSize: variable('DATABASE_POOL_SIZE', '10', integer(1, 200), 'Connections per process in the pool.'),
  databaseStatementTimeoutMs: variable(
    'DATABASE_STATEMENT_TIMEOUT_MS',
    '5000',
    integer(100, 600000),
    'A statement running longer is cancelled by PostgreSQL and the request answers 503 (migrations run without this limit).',
  ),
  databaseLockTimeoutMs: variable(
    'DATABASE_LOCK_TIMEOUT_MS',
    '3000',
    integer(100, 600000),
    'Waiting longer for a row or table lock cancels the statement (503).',
  ),
  databaseIdleInTransactionTimeoutMs: variable(
    'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
    '15000',
    integer(1000, 600000),
    'A transaction left idle this long is ended by PostgreSQL, releasing its locks.',
  ),
  databaseConnectTimeoutMs: variable(
    'DATABASE_CONNECT_TIMEOUT_MS',
    '3000',
    integer(100, 600000),
    'Opening a connection, or waiting for a free one in the pool, longer than this fails the request with 503.',
  ),
  databaseReplicaUrls: variable(
    'DATABASE_REPLICA_URLS',
    '',
    urls('postgres:', 'postgresql:'),
    'Comma-separated PostgreSQL URLs of streaming replicas of DATABASE_URL. Authenticated GET requests read from them; writes, transactions, requests that wrote and background work use DATABASE_URL, and an organization that just wrote reads the primary until a replica has replayed its write. Unset: every statement goes to DATABASE_URL.',
  ),
  replicaMaxLagMs: variable(
    'REPLICA_MAX_LAG_MS',
    '1000',
    integer(10, 600000),
    'A replica that is this far behind the primary, or that does not answer, serves no reads (they go to DATABASE_URL) until it catches up.',
  ),
  redisUrl: variable(
    'REDIS_URL',
    '',
    optional(redisTarget),
    'Redis URL (queues, rate limits, quotas, caches): redis:// or rediss://, or redis+cluster://host:port,host:port (rediss+cluster:// with TLS, user:password@ before the hosts) for a Redis Cluster. Unset outside production: redis-server from the PATH with data under DATA_DIR. Production requires it or REDIS_CLUSTER_NODES.',
  ),
  redisClusterNodes: variable(
    'REDIS_CLUSTER_NODES',
    '',
    optional(clusterNodes),
    'Comma-separated host:port of Redis Cluster nodes (a few are enough: the others are discovered). Set: Redis Cluster mode, without credentials (use a redis+cluster:// REDIS_URL for those); REDIS_URL must then be unset.',
  ),
  redisCommandTimeoutMs: variable(
    'REDIS_COMMAND_TIMEOUT_MS',
    '1000',
    integer(50, 60000),
    'A Redis command (limits, caches, enqueueing) unanswered this long fails the request with 503.',
  ),
  redisConnectTimeoutMs: variable(
    'REDIS_CONNECT_TIMEOUT_MS',
    '1000',
    integer(50, 60000),
    'Opening a Redis connection longer than this counts as a failed attempt (reconnects continue in the background).',
  ),
  httpHeadersTimeoutMs: variable(
    'HTTP_HEADERS_TIMEOUT_MS',
    '10000',
    integer(1000, 600000),
    'A client must send its request headers within this time (slow clients are cut off).',
  ),
  httpRequestTimeoutMs: variable(
    'HTTP_REQUEST_TIMEOUT_MS',
    '60000',
    integer(1000, 3600000),
    'A client must send its whole request within this time.',
  ),
  httpKeepAliveTimeoutMs: variable(
    'HTTP_KEEP_ALIVE_TIMEOUT_MS',
    '65000',
    integer(1000, 600000),
    'An idle keep-alive connection is closed after this time (keep it above the load balancer idle timeout).',
  ),
  dataDir: variable(
    'DATA_DIR',
    '.data',
    (raw) => raw.trim() || '.data',
    'Where the embedded PostgreSQL and Redis keep their data (relative to the working directory).',
  ),
  embeddedPostgresPort: variable(
    'EMBEDDED_POSTGRES_PORT',
    '54329',
    integer(1, 65535),
    'Port of the embedded PostgreSQL (127.0.0.1 only).',
  ),
  embeddedRedisPort: variable(
    'EMBEDDED_REDIS_PORT',
    '63790',
    integer(1, 65535),
    'Port of the embedded Redis (127.0.0.1 only).',
  ),
  demoSeed: variable(
    'DEMO_SEED',
    'true',
    boolean,
    'In development, the first start on an empty database seeds a demo organization and prints its key; false turns this off.',
  ),
  publicBaseUrl: variable(
    'PUBLIC_BASE_URL',
    'http://localhost:3000',
    url('http:', 'https:'),
    'Base URL of this service as clients reach it: Custom Link urls ({PUBLIC_BASE_URL}/l/{slug}) and share cards.',
  ),
  experienceBaseUrl: variable(
    'EXPERIENCE_BASE_URL',
    'http://localhost:5173/experience',
    url('http:', 'https:'),
    'Where /l/{slug} redirects: {EXPERIENCE_BASE_URL}?cl={slug}.',
  ),
  agentBaseUrl: variable(
    'AGENT_BASE_URL',
    'http://localhost:5174/agent',
    url('http:', 'https:'),
    'Agent links: {AGENT_BASE_URL}/staging/{orgId} and {AGENT_BASE_URL}/live/{orgId}.',
  ),
  corsOrigins: variable(
    'CORS_ORIGINS',
    '',
    origins,
    'Comma-separated browser origins (https://app.example.com) allowed to call the API cross-origin. Unset: no CORS headers, and OPTIONS answers 405.',
  ),
  logLevel: variable(
    'LOG_LEVEL',
    'info',
    oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    'fatal | error | warn | info | debug | trace | silent. warn drops the per-request line. Logs never hold keys, headers, bodies, query values or other personal data.',
  ),
  apiKeyCacheTtlSeconds: variable(
    'API_KEY_CACHE_TTL_SECONDS',
    '10',
    integer(0, 30),
    'How long an authenticated key is cached per instance (0..30 s). Revocations reach every instance through Redis at once; an instance that has not heard from Redis for 1 s looks keys up in the database instead.',
  ),
  apiKeyNegativeCacheTtlSeconds: variable(
    'API_KEY_NEGATIVE_CACHE_TTL_SECONDS',
    '60',
    integer(0, 3600),
    'How long an unknown key is remembered per instance as unknown, so repeating it costs no database lookup; creating a key clears its entry on every instance at once.',
  ),
  authFailuresPerClientPerMinute: variable(
    'AUTH_FAILURES_PER_CLIENT_PER_MINUTE',
    '1000',
    integer(1, 100000000),
    'Failed authentications (401) per 60 s per client address (IPv6: per /64); beyond it 429, and keys this instance has not verified are refused without a database lookup.',
  ),
  trustProxy: variable(
    'TRUST_PROXY',
    'false',
    trustProxy,
    "Which proxies' X-Forwarded-For gives the client address for per-client limits (Express trust proxy): false (the connection's peer), true (any), a hop count, or comma-separated addresses, CIDR ranges or loopback, linklocal, uniquelocal.",
  ),
  geoCountryHeader: variable(
    'GEO_COUNTRY_HEADER',
    '',
    optional(headerName),
    "The header in which the proxy in front reports the client's country (ISO 3166-1 alpha-2), e.g. cf-ipcountry; believed only from a proxy TRUST_PROXY trusts. Unset, or not sent: an open's country comes from the client address through the bundled IP-to-country database.",
  ),
  shutdownDrainDelayMs: variable(
    'SHUTDOWN_DRAIN_DELAY_MS',
    '5000',
    integer(0, 600000),
    'On SIGTERM/SIGINT, /readyz answers 503 at once while the API keeps serving this long (responses close their connections), so load balancers move away before the listener closes. Worker-only processes do not wait. Must be below SHUTDOWN_TIMEOUT_MS.',
  ),
  shutdownTimeoutMs: variable(
    'SHUTDOWN_TIMEOUT_MS',
    '25000',
    integer(0, 600000),
    'On SIGTERM/SIGINT: the most the whole shutdown may take, drain delay included; in-flight requests and active jobs get what the drain leaves. Past it the process exits 1 (an unfinished job is resumed by another worker). Keep it below terminationGracePeriodSeconds.',
  ),
  queuePrefix: variable(
    'QUEUE_PREFIX',
    'bull',
    (raw) => raw.trim() || 'bull',
    'Redis key prefix of the Bull queues (installations sharing one Redis use different ones).',
  ),
  queueLockDurationMs: variable(
    'QUEUE_LOCK_DURATION_MS',
    '30000',
    integer(1000, 600000),
    'A worker that dies mid-job holds its job this long before another worker resumes it.',
  ),
  queueStalledIntervalMs: variable(
    'QUEUE_STALLED_INTERVAL_MS',
    '30000',
    integer(1000, 600000),
    'How often workers look for jobs whose worker died.',
  ),
  jobLeaseMs: variable(
    'JOB_LEASE_MS',
    '60000',
    integer(1000, 3600000),
    'A worker holds a lease on the job, render or publish row it works on and renews it every third of this. A row not finished whose lease lapsed (its worker died, or Bull gave the job up), or recorded this long ago and never taken, is queued again by the reaper.',
  ),
  jobReaperIntervalMs: variable(
    'JOB_REAPER_INTERVAL_MS',
    '15000',
    integer(100, 600000),
    'How often each worker process sweeps for job rows whose lease lapsed (several workers sweep safely at once).',
  ),
  idempotencyLeaseMs: variable(
    'IDEMPOTENCY_LEASE_MS',
    '30000',
    integer(1000, 600000),
    'A request holding an Idempotency-Key renews its claim every third of this; a claim not renewed this long (its process died) may be taken over by a retry.',
  ),
  requestsPerMinute: variable('RATE_LIMIT_PER_MINUTE', '120', integer(1, 1000000), 'Requests per 60 s per API key.'),
  transcriptDailyLimit: variable(
    'TRANSCRIPT_DAILY_LIMIT',
    '2000',
    integer(0, 100000000),
    'Successful transcript reads per organization per UTC day.',
  ),
  linkMutationsPerMinute: variable(
    'LINK_MUTATIONS_PER_MINUTE',
    '10',
    integer(1, 1000000),
    'Link mutations (create, update, bulk actions, campaign changes, job cancel/retry) per 60 s per organization.',
  ),
  linkCreationUnitsPerHour: variable(
    'LINK_CREATION_UNITS_PER_HOUR',
    '5000',
    integer(0, 100000000),
    'Custom Links requested per organization per hour.',
  ),
  linkCreationUnitsPerDay: variable(
    'LINK_CREATION_UNITS_PER_DAY',
    '20000',
    integer(0, 100000000),
    'Custom Links requested per organization per day.',
  ),
  thumbnailRenderUnitsPerHour: variable(
    'THUMBNAIL_RENDER_UNITS_PER_HOUR',
    '2000',
    integer(0, 100000000),
    'Share-card renders enqueued per organization per hour.',
  ),
  thumbnailRenderUnitsPerDay: variable(
    'THUMBNAIL_RENDER_UNITS_PER_DAY',
    '10000',
    integer(0, 100000000),
    'Share-card renders enqueued per organization per day.',
  ),
  linkOpensPerClientPerMinute: variable(
    'LINK_OPENS_PER_CLIENT_PER_MINUTE',
    '600',
    integer(1, 100000000),
    'GET /l/{slug} requests per 60 s per client address (IPv6: per /64).',
  ),
  linkOpensPerLinkPerMinute: variable(
    'LINK_OPENS_PER_LINK_PER_MINUTE',
    '3000',
    integer(1, 100000000),
    'GET /l/{slug} requests per 60 s per link (slug), from all clients together.',
  ),
  thumbnailRequestsPerClientPerMinute: variable(
    'THUMBNAIL_REQUESTS_PER_CLIENT_PER_MINUTE',
    '1200',
    integer(1, 100000000),
    'Share-card (/thumbnails/...) requests per 60 s per client address (IPv6: per /64).',
  ),
  thumbnailRenderThreads: variable(
    'THUMBNAIL_RENDER_THREADS',
    '',
    threadsPerCore(32),
    'Worker threads that draw share cards in each worker process (started on the first render). Unset: one per CPU the process may use.',
  ),
  thumbnailRenderTimeoutMs: variable(
    'THUMBNAIL_RENDER_TIMEOUT_MS',
    '10000',
    integer(100, 600000),
    'Longest a share-card drawing may take; past it the drawing thread is terminated and the link shows render_timeout.',
  ),
  cursorSecret: variable(
    'CURSOR_SECRET',
    '',
    optional(token),
    'Signs list cursors (nextCursor) with HMAC-SHA256, so a client cannot edit one or use it for another organization or list (16+ characters). Required in production; unset elsewhere, a fixed development secret is used. Changing it invalidates cursors in flight (clients restart their walk).',
  ),
  playbookApplyEnabled: variable(
    'PLAYBOOK_APPLY_ENABLED',
    'true',
    boolean,
    'false answers playbook apply with 503 (the workflow is switched off).',
  ),
  webhookAllowPrivateUrls: variable(
    'WEBHOOK_ALLOW_PRIVATE_URLS',
    'false',
    boolean,
    'Development and tests only: webhook endpoint URLs may use http, private or loopback addresses and any port. Off: https, public addresses and WEBHOOK_ALLOWED_PORTS only.',
  ),
  webhookAllowedPorts: variable(
    'WEBHOOK_ALLOWED_PORTS',
    '443,80',
    ports,
    "The only ports a webhook endpoint URL may name (an https URL without a port is 443); others are refused with 422. Keep it equal to the ports the worker's egress NetworkPolicy opens (deploy/base/network-policies.yaml, engagement-worker-logo-fetches): deliveries to any other port would time out. Not applied with WEBHOOK_ALLOW_PRIVATE_URLS=true.",
  ),
  webhookRetryBaseMs: variable(
    'WEBHOOK_RETRY_BASE_MS',
    '5000',
    integer(1, 3600000),
    'Unit of the webhook retry schedule: attempts follow after about 1, 60, 360, 1440, 3600, 7200 and 7200 of it (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h by default), with jitter.',
  ),
  webhookDispatchIntervalMs: variable(
    'WEBHOOK_DISPATCH_INTERVAL_MS',
    '1000',
    integer(50, 600000),
    'How often each worker takes the webhook deliveries that are due and that nobody sends (new messages, retries, deliveries of a worker that died) and queues them.',
  ),
  metricsEnabled: variable('METRICS_ENABLED', 'true', boolean, 'false: GET /metrics answers 404 (API and workers).'),
  metricsPort: variable(
    'METRICS_PORT',
    '',
    optional(integer(1, 65535)),
    'When set, GET /metrics is served only on this port (a listener of its own, API and workers) and answers 404 on PORT, so an ingress that routes PORT cannot expose it; the manifests set 9400. Must differ from PORT. Unset: /metrics is served on PORT.',
  ),
  metricsToken: variable(
    'METRICS_TOKEN',
    '',
    optional(token),
    'When set (16+ characters), GET /metrics needs Authorization: Bearer <token> (401 otherwise). Unset: /metrics is open; keep it off the public ingress.',
  ),
  docsEnabled: variable(
    'DOCS_ENABLED',
    'true',
    boolean,
    'false: /docs (Swagger UI) and /api/v1/openapi.json answer 404.',
  ),
  adminToken: variable(
    'ADMIN_TOKEN',
    '',
    optional(token),
    'When set (16+ characters), the queue board is served at /admin/queues to requests with Authorization: Bearer <token> or Basic with the token as password. Unset: /admin/queues answers 404.',
  ),
  tracesExporter: variable(
    'OTEL_TRACES_EXPORTER',
    '',
    optional((raw) => (raw.trim() === 'none' ? null : raw.trim())),
    'Unset or none: no tracing (neither the OpenTelemetry SDK nor any instrumentation is loaded). otlp (or console): traces of HTTP requests, PostgreSQL, Redis and queue jobs, configured by the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, ...).',
  ),
};

type Parsed = { [K in keyof typeof VARIABLES]: (typeof VARIABLES)[K] extends Variable<infer T> ? T : never };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** Parses an environment (process.env by default); throws ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const problems: string[] = [];
  const values: Partial<Parsed> = {};
  for (const [field, spec] of Object.entries(VARIABLES) as [keyof Parsed, Variable<unknown>][]) {
    const raw = env[spec.name];
    const source = raw === undefined || raw === '' ? spec.default : raw;
    try {
      (values as Record<string, unknown>)[field] = spec.parse(source);
    } catch (error) {
      if (!(error instanceof InvalidVariable)) throw error;
      problems.push(
        `Invalid environment variable ${spec.name}=${JSON.stringify(withoutPassword(source))}: ${error.message}.`,
      );
    }
  }
  if (values.nodeEnv === 'production') {
    // Production never starts services of its own: a missing URL is a deployment mistake.
    for (const field of ['databaseUrl', 'redisUrl', 'cursorSecret'] as const) {
      // REDIS_CLUSTER_NODES names the Redis as well.
      if (field === 'redisUrl' && values.redisClusterNodes) continue;
      if (values[field] === null)
        problems.push(`Missing environment variable ${VARIABLES[field].name}: required when NODE_ENV=production.`);
    }
  }
  if (values.redisUrl && values.redisClusterNodes) {
    // Two sources of one address would leave the reader guessing which one the service uses.
    problems.push('REDIS_URL and REDIS_CLUSTER_NODES exclude each other: set one.');
  }
  const { appRole, shutdownDrainDelayMs: drain, shutdownTimeoutMs: timeout } = values;
  if (appRole !== 'worker' && drain !== undefined && timeout !== undefined && drain > 0 && drain >= timeout) {
    // The timeout counts from the signal: a drain as long would leave nothing to finish requests and jobs in.
    problems.push(
      `SHUTDOWN_DRAIN_DELAY_MS (${drain}) must be less than SHUTDOWN_TIMEOUT_MS (${timeout}), which counts the drain too.`,
    );
  }
  if (values.metricsPort !== undefined && values.metricsPort !== null && values.metricsPort === values.port) {
    problems.push(`METRICS_PORT (${values.metricsPort}) must differ from PORT: it is a listener of its own.`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const v = values as Parsed;
  return {
    nodeEnv: v.nodeEnv,
    appRole: v.appRole,
    port: v.port,
    databaseUrl: v.databaseUrl ?? embeddedPostgresUrl(v.embeddedPostgresPort),
    databasePoolSize: v.databasePoolSize,
    redis: redisTargetOf(v),
    replicas: { urls: v.databaseReplicaUrls, maxLagMs: v.replicaMaxLagMs },
    localServices: {
      postgres: v.databaseUrl === null,
      redis: v.redisUrl === null && v.redisClusterNodes === null,
      dataDir: v.dataDir,
      postgresPort: v.embeddedPostgresPort,
      redisPort: v.embeddedRedisPort,
    },
    demoSeed: v.demoSeed,
    publicBaseUrl: v.publicBaseUrl,
    experienceBaseUrl: v.experienceBaseUrl,
    agentBaseUrl: v.agentBaseUrl,
    corsOrigins: v.corsOrigins,
    logLevel: v.logLevel,
    apiKeyCacheTtlSeconds: v.apiKeyCacheTtlSeconds,
    apiKeyNegativeCacheTtlSeconds: v.apiKeyNegativeCacheTtlSeconds,
    trustProxy: v.trustProxy,
    geoCountryHeader: v.geoCountryHeader,
    // No traffic is routed to a worker-only process (it serves probes only): nothing to drain.
    shutdownDrainDelayMs: v.appRole === 'worker' ? 0 : v.shutdownDrainDelayMs,
    shutdownTimeoutMs: v.shutdownTimeoutMs,
    queuePrefix: v.queuePrefix,
    queueLockDurationMs: v.queueLockDurationMs,
    queueStalledIntervalMs: v.queueStalledIntervalMs,
    jobLeaseMs: v.jobLeaseMs,
    jobReaperIntervalMs: v.jobReaperIntervalMs,
    idempotencyLeaseMs: v.idempotencyLeaseMs,
    limits: {
      requestsPerMinute: v.requestsPerMinute,
      transcriptDailyLimit: v.transcriptDailyLimit,
      linkMutationsPerMinute: v.linkMutationsPerMinute,
      linkCreationUnitsPerHour: v.linkCreationUnitsPerHour,
      linkCreationUnitsPerDay: v.linkCreationUnitsPerDay,
      thumbnailRenderUnitsPerHour: v.thumbnailRenderUnitsPerHour,
      thumbnailRenderUnitsPerDay: v.thumbnailRenderUnitsPerDay,
      authFailuresPerClientPerMinute: v.authFailuresPerClientPerMinute,
      linkOpensPerClientPerMinute: v.linkOpensPerClientPerMinute,
      linkOpensPerLinkPerMinute: v.linkOpensPerLinkPerMinute,
      thumbnailRequestsPerClientPerMinute: v.thumbnailRequestsPerClientPerMinute,
    },
    thumbnails: {
      renderThreads: v.thumbnailRenderThreads,
      renderTimeoutMs: v.thumbnailRenderTimeoutMs,
    },
    playbookApplyEnabled: v.playbookApplyEnabled,
    webhooks: {
      allowPrivateUrls: v.webhookAllowPrivateUrls,
      allowedPorts: v.webhookAllowedPorts,
      retryBaseMs: v.webhookRetryBaseMs,
      dispatchIntervalMs: v.webhookDispatchIntervalMs,
    },
    cursorSecret: v.cursorSecret ?? DEVELOPMENT_CURSOR_SECRET,
    timeouts: {
      databaseStatementMs: v.databaseStatementTimeoutMs,
      databaseLockMs: v.databaseLockTimeoutMs,
      databaseIdleInTransactionMs: v.databaseIdleInTransactionTimeoutMs,
      databaseConnectMs: v.databaseConnectTimeoutMs,
      redisCommandMs: v.redisCommandTimeoutMs,
      redisConnectMs: v.redisConnectTimeoutMs,
      httpHeadersMs: v.httpHeadersTimeoutMs,
      httpRequestMs: v.httpRequestTimeoutMs,
      httpKeepAliveMs: v.httpKeepAliveTimeoutMs,
    },
    operations: {
      metricsEnabled: v.metricsEnabled,
      metricsPort: v.metricsPort,
      metricsToken: v.metricsToken,
      docsEnabled: v.docsEnabled,
      adminToken: v.adminToken,
      tracesExporter: v.tracesExporter,
    },
  };
}

function redisTargetOf(v: Parsed): RedisTarget {
  if (v.redisClusterNodes)
    return { mode: 'cluster', nodes: v.redisClusterNodes, username: null, password: null, tls: false };
  return v.redisUrl ?? { mode: 'single', url: embeddedRedisUrl(v.embeddedRedisPort) };
}

/** Loads the configuration or prints one line per bad variable and exits non-zero. */
export function loadConfigOrExit(): AppConfig {
  // A local .env (see .env.example) fills in variables the environment does not set.
  try {
    process.loadEnvFile('.env');
  } catch {
    // no .env file: the environment alone decides
  }
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // One JSON line per problem, as the logger writes (the logger needs a configuration to start).
    for (const problem of error.problems) writeJsonLine('fatal', 'Invalid configuration', { problem });
    process.exit(1);
  }
}
