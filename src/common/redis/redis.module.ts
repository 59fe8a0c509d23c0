import { Global, Inject, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';
import { AppConfigService } from '../../config/app-config';
import type { RedisTarget, TimeoutsConfig } from '../../config/environment';

export const REDIS = Symbol('REDIS');

/** The shared connection: one Redis, or a Redis Cluster (docs/scaling.md "Redis Cluster"). */
export type RedisClient = Redis | Cluster;

/**
 * Bounded waits: a command unanswered within REDIS_COMMAND_TIMEOUT_MS fails (the request answers
 * 503) while reconnecting goes on in the background, so the service heals by itself.
 */
export function boundedRedisOptions(timeouts: TimeoutsConfig): RedisOptions {
  return {
    commandTimeout: timeouts.redisCommandMs,
    connectTimeout: timeouts.redisConnectMs,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  };
}

/**
 * A client of the configured Redis. `options` are per connection (for a cluster: per node); the
 * cluster-wide ones (offline queue, ready check, auto-pipelining) apply to the whole cluster.
 */
export function connectRedis(target: RedisTarget, options: RedisOptions): RedisClient {
  if (target.mode === 'single') return new Redis(target.url, options);
  const { enableOfflineQueue, enableReadyCheck, enableAutoPipelining, lazyConnect, ...perNode } = options;
  return new Cluster(target.nodes, {
    ...clusterOptions(),
    ...(enableOfflineQueue !== undefined && { enableOfflineQueue }),
    ...(enableReadyCheck !== undefined && { enableReadyCheck }),
    ...(enableAutoPipelining !== undefined && { enableAutoPipelining }),
    ...(lazyConnect !== undefined && { lazyConnect }),
    redisOptions: { ...nodeOptions(target), ...perNode },
  });
}

/** Credentials and TLS of every node of a cluster. */
export function nodeOptions(target: Extract<RedisTarget, { mode: 'cluster' }>): RedisOptions {
  return {
    ...(target.username && { username: target.username }),
    ...(target.password && { password: target.password }),
    ...(target.tls && { tls: {} }),
  };
}

/**
 * How the cluster client rides out a node that is away. A command for its slots is retried a few
 * times, 100 ms apart, while the slot map is refreshed (a failover promotes a replica within this),
 * then fails: the request answers 503 within REDIS_COMMAND_TIMEOUT_MS plus half a second, as with one
 * Redis, instead of ioredis' 16 redirections. The whole cluster unreachable: reconnect every second at most.
 */
export function clusterOptions(): ClusterOptions {
  return {
    maxRedirections: 4,
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    slotsRefreshTimeout: 1000,
    clusterRetryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  };
}

/** How often the shared connection is probed. */
const PROBE_INTERVAL_MS = 250;

/**
 * Fails fast while Redis is away (issue 30 point 1). The shared connection queues nothing while it is
 * not ready (`enableOfflineQueue: false`): a command during a reconnect fails at once instead of
 * waiting for its timeout. A stalled connection (open, but nothing answers) stays "ready" in
 * ioredis' eyes, so a probe unanswered for half a command timeout reconnects it; the new connection's
 * ready check stalls and times out in turn, and commands keep failing at once until Redis answers.
 * A busy process is not a stalled Redis: the verdict waits for the poll phase (setImmediate runs
 * after it), so a pong already received is read before the connection is judged. Returns a
 * function that stops probing.
 */
export function failFastWhileAway(connection: RedisClient, commandTimeoutMs: number): () => void {
  let answered = true;
  const probe = setInterval(() => {
    if (!answered || connection.status !== 'ready') return;
    answered = false;
    // Half the command timeout: judged before the ping's own timeout would count it as answered.
    const verdict = setTimeout(
      () => setImmediate(() => !answered && connection.status === 'ready' && connection.disconnect(true)),
      commandTimeoutMs / 2,
    );
    connection
      .ping()
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(verdict);
        answered = true;
      });
  }, PROBE_INTERVAL_MS);
  probe.unref();
  return () => clearInterval(probe);
}

/** Logs a connection's errors once per outage, as JSON through the app logger (never an unhandled 'error' event). */
export function logConnectionErrors<T extends RedisClient>(connection: T, name: string): T {
  const logger = new Logger(name);
  let failing = false;
  connection.on('error', (error: NodeJS.ErrnoException) => {
    if (failing) return;
    failing = true;
    logger.warn({ code: error.code ?? error.name }, 'Redis unreachable; reconnecting');
  });
  connection.on('ready', () => {
    if (failing) logger.log('Redis reachable again');
    failing = false;
  });
  return connection;
}

/** One shared Redis connection for counters and limits (Bull opens its own). */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfigService],
      useFactory: (config: AppConfigService) =>
        logConnectionErrors(
          // Auto-pipelining sends the commands of concurrent requests (one rate-limit charge each) in one
          // write: fewer syscalls on both ends, about a tenth of a small request's CPU here.
          connectRedis(config.values.redis, {
            enableAutoPipelining: true,
            enableReadyCheck: true,
            enableOfflineQueue: false,
            lazyConnect: false,
            ...boundedRedisOptions(config.values.timeouts),
          }),
          'Redis',
        ),
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnModuleInit, OnApplicationShutdown {
  private readonly stopProbing: () => void;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly config: AppConfigService,
  ) {
    this.stopProbing = failFastWhileAway(redis, config.values.timeouts.redisCommandMs);
  }

  /** Start-up waits for the first connection a little (nothing is queued before it); Redis down: the app starts and answers 503. */
  async onModuleInit(): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, this.config.values.timeouts.redisConnectMs * 2);
      this.redis.once('ready', done);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopProbing();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
