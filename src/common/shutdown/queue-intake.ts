import { Inject, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import Queue from 'bull';
import { within } from '../errors/dependency-failure';
import { REDIS, type RedisClient } from '../redis/redis.module';

/** How often a stopping process looks whether Redis is away, and how long a closing queue's ping may take. */
const AWAY_CHECK_MS = 100;
const PING_WITHIN_MS = 500;
/** The shared connection's states while Redis is away; `end` is our own quit. */
const AWAY = new Set(['connecting', 'connect', 'reconnecting']);

/** Bull's queue with the internals the shutdown reads or replaces (not in its typings). */
type BullQueue = Queue.Queue & {
  client: RedisClient;
  closing?: Promise<void>;
  processing: Record<string, Promise<unknown>>;
  whenCurrentJobsFinished: () => Promise<void>;
};

/**
 * Stops every Bull queue of this process from taking new jobs (a local pause); a job already
 * active carries on, and the queue's close waits for it. Queues are found by type, not by name.
 *
 * From `stop` on it also watches whether Redis is away: the shared connection reconnecting (refused,
 * or stalled as its probe saw), or a closing queue's connection not answering a ping in time. Bull's
 * close then waits for a Redis that may never answer; the shutdown (stop-on-signals.ts) asks
 * `redisWasAway` before giving up on it.
 */
@Injectable()
export class QueueIntake {
  private watch?: NodeJS.Timeout;
  /** Whether Redis was seen away since the shutdown began (it stays so: our own quit changes nothing). */
  private redisAway = false;
  private readonly pinging = new Set<BullQueue>();

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(REDIS) private readonly redis: RedisClient,
  ) {}

  stop(): void {
    for (const queue of this.queues()) {
      // Not awaited: a queue whose Redis is down would hold the shutdown here.
      queue.pause(true, true).catch(() => undefined);
      queue.whenCurrentJobsFinished = () => activeJobsOf(queue);
    }
    // Until the process exits (unref'd: it holds nothing open), past the app's own shutdown hooks.
    this.watch ??= setInterval(() => this.watchRedis(), AWAY_CHECK_MS);
    this.watch.unref();
  }

  /** Whether Redis was seen away (refused, or stalled) since `stop`. */
  redisWasAway(): boolean {
    return this.redisAway;
  }

  private watchRedis(): void {
    const status = this.redis.status;
    if (status !== 'end' && status !== 'close') this.redisAway ||= AWAY.has(status);
    if (this.redisAway) return;
    for (const queue of this.queues()) if (queue.closing && !this.pinging.has(queue)) this.pingOrAway(queue);
  }

  /** A stalled Redis leaves the queue's connections "ready": one that does not answer a ping in time means Redis is away. */
  private pingOrAway(queue: BullQueue): void {
    this.pinging.add(queue);
    void within(queue.client.ping(), PING_WITHIN_MS, 'Redis').then(
      () => this.pinging.delete(queue),
      () => {
        this.pinging.delete(queue);
        this.redisAway = true;
      },
    );
  }

  private queues(): BullQueue[] {
    return this.discovery
      .getProviders()
      .flatMap(({ instance }) => (instance instanceof Queue ? [instance as BullQueue] : []));
  }
}

/**
 * What Bull's close waits for once the queue is paused here. Bull's own version also forces its
 * blocking connection to reconnect and reads that connect() only after the active jobs end; with
 * Redis away it rejects first, an unhandled rejection. The local pause above has already aborted
 * the blocking call and no new one starts while paused, so the active jobs are all there is to wait for.
 */
function activeJobsOf(queue: BullQueue): Promise<void> {
  return Promise.all(Object.values(queue.processing)).then(() => undefined);
}
