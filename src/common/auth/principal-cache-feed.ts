import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import Redis, { Cluster } from 'ioredis';
import { REDIS, type RedisClient } from '../redis/redis.module';
import { API_KEY_CHANGES_CHANNEL, parseApiKeyChange } from './api-key-changes';
import { PrincipalCache } from './principal-cache';

/** How often the subscriber connection is pinged. */
const HEARTBEAT_MS = 250;
/** How long after a ping was sent its pong vouches for the cache: the bound on a revoked key's life when announcements stop arriving. */
export const CACHE_LEASE_MS = 1000;
/** How long a request whose lease lapsed (the process was busy) waits for a pong before looking its key up instead. */
const RENEWAL_WAIT_MS = 500;
/** How long start-up waits for the first pong (Redis down at start: the API starts and looks every key up until it answers). */
const START_WAIT_MS = 2000;

/**
 * Keeps this instance's PrincipalCache true to key revocations and creations announced on Redis
 * pub/sub (ApiKeyChanges), on a connection of its own (a subscribed connection can run no other
 * command; Bull keeps its own connections too).
 *
 * Pub/sub delivers at most once, so the cache is served only under a lease: a PONG on the
 * subscribed connection proves every announcement published before Redis answered the PING has
 * been received (one connection, in order), so the cache is trusted until the PING's send time
 * plus CACHE_LEASE_MS, and pings go out every HEARTBEAT_MS. When the connection drops the cache is
 * distrusted at once; after the reconnect (ioredis subscribes again before anything else) the first
 * PONG clears it, as announcements made meanwhile were lost. A stalled connection ends the lease
 * within CACHE_LEASE_MS. So a revoked key stops working on every instance within a second, and
 * usually within milliseconds, without a Redis round trip per request.
 *
 * On a Redis Cluster the same proof needs announcements and pings on one node: announcements are
 * sharded (SPUBLISH goes to the master owning the channel's slot) and the subscriber connects to
 * that master (changesConnection).
 */
@Injectable()
export class PrincipalCacheFeed implements OnModuleInit, OnApplicationShutdown {
  private subscriber?: ChangesConnection;
  private heartbeat?: NodeJS.Timeout;
  private subscribed = false;
  private subscribing = false;
  private connecting = false;
  private stopped = false;
  /** The ping under way: resolves true when answered, false when it failed. */
  private inFlight?: Promise<boolean>;
  /** Announcements may have been missed since the cache was last cleared. */
  private stale = true;
  private firstLease?: () => void;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly cache: PrincipalCache,
  ) {}

  async onModuleInit(): Promise<void> {
    this.cache.trustUntil(0);
    const leased = new Promise<void>((resolve) => (this.firstLease = resolve));
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.beat();
    await within(leased, START_WAIT_MS);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.heartbeat);
    this.subscriber?.connection.disconnect();
    this.subscriber = undefined;
  }

  /** Makes the subscriber connection (once at a time), then subscribes it. */
  private connect(): void {
    if (this.connecting) return;
    this.connecting = true;
    changesConnection(this.redis).then(
      (subscriber) => {
        this.connecting = false;
        if (this.stopped) subscriber.connection.disconnect();
        else this.listen(subscriber);
      },
      () => (this.connecting = false),
    );
  }

  private listen(subscriber: ChangesConnection): void {
    this.subscriber = subscriber;
    const { connection } = subscriber;
    const onMessage = (channel: string, message: string) => {
      if (channel === API_KEY_CHANGES_CHANNEL) this.apply(message);
    };
    connection.on('message', onMessage);
    connection.on('smessage', onMessage);
    connection.on('close', () => {
      this.stale = true;
      this.cache.trustUntil(0);
      // On a cluster the channel's master may have changed (a failover): connect afresh to whichever
      // master the slot map names now, rather than reconnecting to this address.
      if (subscriber.sharded) this.replace(subscriber);
    });
    // The channel's slot has moved to another master (resharding): follow it. ioredis leaves the
    // refused subscription unsettled, so the state is reset in `replace`.
    connection.on('moved', () => {
      if (this.redis instanceof Cluster) this.redis.refreshSlotsCache();
      this.replace(subscriber);
    });
    // Connection errors are retried by ioredis; meanwhile the lease lapses and keys are looked up.
    connection.on('error', () => undefined);
    this.beat();
  }

  /** Drops a subscriber connection; the next beat makes a new one. */
  private replace(subscriber: ChangesConnection): void {
    if (this.subscriber !== subscriber) return;
    subscriber.connection.disconnect();
    this.subscriber = undefined;
    this.subscribed = false;
    this.subscribing = false;
    this.stale = true;
    this.cache.trustUntil(0);
  }

  /**
   * Whether the cache may be used now, renewing a lapsed lease first. A lease lapses when this
   * process was too busy to see its pongs in time; a fresh pong is then cheaper than a database
   * lookup and just as sure. False when the subscription is down or Redis does not answer in time.
   */
  async renewLease(): Promise<boolean> {
    const deadline = Date.now() + RENEWAL_WAIT_MS;
    while (!this.cache.isTrusted()) {
      const remaining = deadline - Date.now();
      // A pong of a ping sent before the lapse may not renew it: then one more is sent.
      if (!this.subscribed || this.stale || remaining <= 0 || !(await within(this.ping(), remaining))) return false;
    }
    return true;
  }

  private beat(): void {
    const subscriber = this.subscriber;
    if (!subscriber) return this.connect();
    if (this.subscribed) {
      void this.ping();
      return;
    }
    if (this.subscribing) return;
    this.subscribing = true;
    subscribeToChanges(subscriber).then(
      () => {
        if (this.subscriber !== subscriber) return;
        this.subscribed = true;
        this.subscribing = false;
        this.beat();
      },
      () => {
        if (this.subscriber === subscriber) this.subscribing = false;
      },
    );
  }

  /** Pings the subscription (one ping at a time); its pong renews the lease. */
  private ping(): Promise<boolean> {
    if (this.inFlight) return this.inFlight;
    const subscriber = this.subscriber;
    if (!subscriber) return Promise.resolve(false);
    const sentAt = Date.now();
    const ping = subscriber.connection.ping().then(
      () => {
        if (this.stale) {
          this.cache.clear();
          this.stale = false;
        }
        this.cache.trustUntil(sentAt + CACHE_LEASE_MS);
        this.firstLease?.();
        return true;
      },
      () => false,
    );
    this.inFlight = ping;
    void ping.finally(() => {
      if (this.inFlight === ping) this.inFlight = undefined;
    });
    return ping;
  }

  private apply(message: string): void {
    const change = parseApiKeyChange(message);
    if (!change) return;
    if ('revokedKeyId' in change) this.cache.forgetKey(change.revokedKeyId);
    else this.cache.forgetUnknown(change.createdKeyHash);
  }
}

/** The connection the announcements arrive on, and whether they are sharded (a cluster's). */
export interface ChangesConnection {
  connection: Redis;
  sharded: boolean;
}

/**
 * A connection of its own for the announcements (a subscribed connection can run no other command),
 * with its own queue (the shared connection queues nothing): a subscription or ping waits for the
 * reconnect. On a cluster: to the master that owns the channel's slot, where SPUBLISH delivers
 * (fails while the cluster client knows no slot map yet: the feed tries again at its next beat).
 */
export async function changesConnection(redis: RedisClient): Promise<ChangesConnection> {
  const options = { enableAutoPipelining: false, enableOfflineQueue: true, maxRetriesPerRequest: null };
  if (!(redis instanceof Cluster)) return { connection: redis.duplicate(options), sharded: false };
  const owner = await channelOwner(redis);
  return { connection: new Redis({ ...redis.options.redisOptions, ...owner, ...options }), sharded: true };
}

/** The master that owns the channel's slot, as the cluster client's slot map says. */
async function channelOwner(cluster: Cluster): Promise<{ host: string; port: number }> {
  const slot = await cluster.cluster('KEYSLOT', API_KEY_CHANGES_CHANNEL);
  const [master] = cluster.slots[slot] ?? [];
  if (!master) throw new Error('The cluster slot map is not known yet');
  const separator = master.lastIndexOf(':');
  return { host: master.slice(0, separator), port: Number(master.slice(separator + 1)) };
}

export function subscribeToChanges({ connection, sharded }: ChangesConnection): Promise<unknown> {
  return sharded ? connection.ssubscribe(API_KEY_CHANGES_CHANNEL) : connection.subscribe(API_KEY_CHANGES_CHANNEL);
}

/** Resolves with the promise's value, or with false when `ms` pass first. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | false> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)))]);
  } finally {
    clearTimeout(timer);
  }
}
