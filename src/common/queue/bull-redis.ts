import { BullModule, type BullRootModuleOptions } from '@nestjs/bull';
import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import Queue from 'bull';
import { Cluster, type RedisOptions } from 'ioredis';
import type { AppConfig, RedisTarget, TimeoutsConfig } from '../../config/environment';
import { clusterOptions, nodeOptions } from '../redis/redis.module';

type ClusterTarget = Extract<RedisTarget, { mode: 'cluster' }>;

/**
 * Bull's Redis connections reconnect within a second of Redis coming back (Bull's default backs off
 * to 20 s). Enqueueing from a request is bounded by `enqueue` (job-options.ts), not by the client:
 * a client that gives up on commands (maxRetriesPerRequest) leaves Bull unable to close.
 */
export function bullRedisOptions(redisUrl: string, timeouts: TimeoutsConfig): RedisOptions {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    db: Number(url.pathname.slice(1) || 0),
    ...(url.username && { username: decodeURIComponent(url.username) }),
    ...(url.password && { password: decodeURIComponent(url.password) }),
    ...(url.protocol === 'rediss:' && { tls: {} }),
    connectTimeout: timeouts.redisConnectMs,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
  };
}

/**
 * Bull's key prefix. Bull's Lua scripts touch several keys of a queue at once, which a cluster runs
 * only when they share a hash slot: there the prefix is a hash tag (`{bull}`), so every queue lives
 * in one slot, on one master. One Redis keeps the prefix as configured.
 */
export function bullPrefix(prefix: string, target: RedisTarget): string {
  return target.mode === 'cluster' && !/\{[^}]+\}/.test(prefix) ? `{${prefix}}` : prefix;
}

/**
 * Bull's connections to a Redis Cluster. Bull closes only the connections it made itself, so the
 * ones made here are closed here, after every queue has closed.
 */
class BullClusterConnections implements OnApplicationShutdown {
  private readonly clients = new Set<Cluster>();
  private discovery?: DiscoveryService;

  constructor(
    private readonly target: ClusterTarget,
    private readonly timeouts: TimeoutsConfig,
  ) {}

  /** Bull's createClient: blocking and subscriber connections must not give up on commands nor run a ready check (Bull refuses them otherwise). */
  create(): Cluster {
    const client = new Cluster(this.target.nodes, {
      ...clusterOptions(),
      enableReadyCheck: false,
      redisOptions: {
        ...nodeOptions(this.target),
        connectTimeout: this.timeouts.redisConnectMs,
        enableReadyCheck: false,
        maxRetriesPerRequest: null,
      },
    });
    this.clients.add(client);
    return client;
  }

  watch(discovery: DiscoveryService): void {
    this.discovery = discovery;
  }

  async onApplicationShutdown(): Promise<void> {
    const queues = (this.discovery?.getProviders() ?? []).flatMap(({ instance }) =>
      instance instanceof Queue ? [instance as Queue.Queue] : [],
    );
    // close() is idempotent: the queue's own shutdown hook may have started it already.
    await Promise.all(queues.map((queue) => queue.close().catch(() => undefined)));
    for (const client of this.clients) client.disconnect();
    this.clients.clear();
  }
}

const CLUSTER_CONNECTIONS = Symbol('BULL_CLUSTER_CONNECTIONS');

/** Bull's root configuration on the configured Redis: one Redis, or a cluster with a hash-tagged prefix. */
@Module({})
export class BullRedisModule {
  static forRoot(config: AppConfig, settings: BullRootModuleOptions['settings'] = {}): DynamicModule {
    const { redis: target, timeouts } = config;
    const prefix = bullPrefix(config.queuePrefix, target);
    if (target.mode === 'single') {
      return {
        module: BullRedisModule,
        imports: [BullModule.forRoot({ redis: bullRedisOptions(target.url, timeouts), prefix, settings })],
      };
    }
    const connections = new BullClusterConnections(target, timeouts);
    return {
      module: BullRedisModule,
      imports: [DiscoveryModule, BullModule.forRoot({ createClient: () => connections.create(), prefix, settings })],
      providers: [
        {
          provide: CLUSTER_CONNECTIONS,
          inject: [DiscoveryService],
          useFactory: (discovery: DiscoveryService) => {
            connections.watch(discovery);
            return connections;
          },
        },
      ],
    };
  }
}
