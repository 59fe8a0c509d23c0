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
  redisUrl: string;
  publicBaseUrl: string;
  experienceBaseUrl: string;
  agentBaseUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  apiKeyCacheTtlSeconds: number;
  shutdownTimeoutMs: number;
  queuePrefix: string;
  queueLockDurationMs: number;
  queueStalledIntervalMs: number;
  limits: {
    requestsPerMinute: number;
    transcriptDailyLimit: number;
    linkMutationsPerMinute: number;
    linkCreationUnitsPerHour: number;
    linkCreationUnitsPerDay: number;
    thumbnailRenderUnitsPerHour: number;
    thumbnailRenderUnitsPerDay: number;
  };
  playbookApplyEnabled: boolean;
  publishEvaluationDelayMs: number;
}

type Parser<T> = (raw: string) => T;

class InvalidVariable extends Error {}

const integer = (min: number, max: number): Parser<number> => (raw) => {
  if (!/^-?\d+$/.test(raw.trim())) throw new InvalidVariable(`must be an integer between ${min} and ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw new InvalidVariable(`must be an integer between ${min} and ${max}`);
  return value;
};

const oneOf = <T extends string>(...values: T[]): Parser<T> => (raw) => {
  if (!(values as string[]).includes(raw)) throw new InvalidVariable(`must be one of ${values.join(', ')}`);
  return raw as T;
};

const boolean: Parser<boolean> = (raw) => {
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new InvalidVariable('must be true or false');
};

const url = (...protocols: string[]): Parser<string> => (raw) => {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new InvalidVariable(`must be a URL (${protocols.join(', ')})`);
  }
  if (!protocols.includes(parsed.protocol)) throw new InvalidVariable(`must be a URL (${protocols.join(', ')})`);
  return raw.replace(/\/+$/, '');
};

interface Variable<T> {
  name: string;
  default: string;
  parse: Parser<T>;
}

const variable = <T>(name: string, defaultValue: string, parse: Parser<T>): Variable<T> => ({
  name,
  default: defaultValue,
  parse,
});

/** Declared in the order .env.example lists them. */
export const VARIABLES = {
  nodeEnv: variable('NODE_ENV', 'development', oneOf('development', 'production', 'test')),
  appRole: variable('APP_ROLE', 'all', oneOf<AppRole>('all', 'api', 'worker')),
  port: variable('PORT', '3000', integer(1, 65535)),
  databaseUrl: variable('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/engagement', url('postgres:', 'postgresql:')),
  databasePoolSize: variable('DATABASE_POOL_SIZE', '10', integer(1, 200)),
  redisUrl: variable('REDIS_URL', 'redis://127.0.0.1:6379/0', url('redis:', 'rediss:')),
  publicBaseUrl: variable('PUBLIC_BASE_URL', 'http://localhost:3000', url('http:', 'https:')),
  experienceBaseUrl: variable('EXPERIENCE_BASE_URL', 'http://localhost:5173/experience', url('http:', 'https:')),
  agentBaseUrl: variable('AGENT_BASE_URL', 'http://localhost:5174/agent', url('http:', 'https:')),
  logLevel: variable('LOG_LEVEL', 'info', oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent')),
  apiKeyCacheTtlSeconds: variable('API_KEY_CACHE_TTL_SECONDS', '10', integer(0, 30)),
  shutdownTimeoutMs: variable('SHUTDOWN_TIMEOUT_MS', '25000', integer(0, 600000)),
  queuePrefix: variable('QUEUE_PREFIX', 'bull', (raw) => raw.trim() || 'bull'),
  queueLockDurationMs: variable('QUEUE_LOCK_DURATION_MS', '30000', integer(1000, 600000)),
  queueStalledIntervalMs: variable('QUEUE_STALLED_INTERVAL_MS', '30000', integer(1000, 600000)),
  requestsPerMinute: variable('RATE_LIMIT_PER_MINUTE', '120', integer(1, 1000000)),
  transcriptDailyLimit: variable('TRANSCRIPT_DAILY_LIMIT', '2000', integer(0, 100000000)),
  linkMutationsPerMinute: variable('LINK_MUTATIONS_PER_MINUTE', '10', integer(1, 1000000)),
  linkCreationUnitsPerHour: variable('LINK_CREATION_UNITS_PER_HOUR', '5000', integer(0, 100000000)),
  linkCreationUnitsPerDay: variable('LINK_CREATION_UNITS_PER_DAY', '20000', integer(0, 100000000)),
  thumbnailRenderUnitsPerHour: variable('THUMBNAIL_RENDER_UNITS_PER_HOUR', '2000', integer(0, 100000000)),
  thumbnailRenderUnitsPerDay: variable('THUMBNAIL_RENDER_UNITS_PER_DAY', '10000', integer(0, 100000000)),
  playbookApplyEnabled: variable('PLAYBOOK_APPLY_ENABLED', 'true', boolean),
  publishEvaluationDelayMs: variable('PUBLISH_EVALUATION_DELAY_MS', '0', integer(0, 600000)),
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
      problems.push(`Invalid environment variable ${spec.name}=${JSON.stringify(source)}: ${error.message}.`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const v = values as Parsed;
  return {
    nodeEnv: v.nodeEnv,
    appRole: v.appRole,
    port: v.port,
    databaseUrl: v.databaseUrl,
    databasePoolSize: v.databasePoolSize,
    redisUrl: v.redisUrl,
    publicBaseUrl: v.publicBaseUrl,
    experienceBaseUrl: v.experienceBaseUrl,
    agentBaseUrl: v.agentBaseUrl,
    logLevel: v.logLevel,
    apiKeyCacheTtlSeconds: v.apiKeyCacheTtlSeconds,
    shutdownTimeoutMs: v.shutdownTimeoutMs,
    queuePrefix: v.queuePrefix,
    queueLockDurationMs: v.queueLockDurationMs,
    queueStalledIntervalMs: v.queueStalledIntervalMs,
    limits: {
      requestsPerMinute: v.requestsPerMinute,
      transcriptDailyLimit: v.transcriptDailyLimit,
      linkMutationsPerMinute: v.linkMutationsPerMinute,
      linkCreationUnitsPerHour: v.linkCreationUnitsPerHour,
      linkCreationUnitsPerDay: v.linkCreationUnitsPerDay,
      thumbnailRenderUnitsPerHour: v.thumbnailRenderUnitsPerHour,
      thumbnailRenderUnitsPerDay: v.thumbnailRenderUnitsPerDay,
    },
    playbookApplyEnabled: v.playbookApplyEnabled,
    publishEvaluationDelayMs: v.publishEvaluationDelayMs,
  };
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
    for (const line of error.problems) process.stderr.write(`${line}\n`);
    process.exit(1);
  }
}
