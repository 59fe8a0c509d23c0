import { EventEmitter } from 'node:events';
import type Redis from 'ioredis';
import { API_KEY_CHANGES_CHANNEL } from './api-key-changes';
import type { Principal } from './principal';
import { PrincipalCache } from './principal-cache';
import { CACHE_LEASE_MS, PrincipalCacheFeed } from './principal-cache-feed';

/** The subscriber connection: PINGs wait until the test answers them. */
class FakeSubscriber extends EventEmitter {
  readonly unanswered: (() => void)[] = [];
  readonly subscribe = jest.fn(async (_channel: string) => 1);
  readonly ping = jest.fn(() => new Promise<string>((resolve) => this.unanswered.push(() => resolve('PONG'))));
  readonly disconnect = jest.fn();

  answerPings(): void {
    for (const answer of this.unanswered.splice(0)) answer();
  }
}

const principal: Principal = { keyId: 'k', organizationId: 'o', scopes: ['sessions:read'] };

describe('PrincipalCacheFeed', () => {
  let subscriber: FakeSubscriber;
  let cache: PrincipalCache;
  let feed: PrincipalCacheFeed;

  /** Lets promise callbacks run and `ms` of fake time pass. */
  const pass = (ms = 0) => jest.advanceTimersByTimeAsync(ms);

  beforeEach(async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    subscriber = new FakeSubscriber();
    cache = new PrincipalCache({ ttlMs: 60_000, negativeTtlMs: 60_000 });
    feed = new PrincipalCacheFeed({ duplicate: () => subscriber } as unknown as Redis, cache);
    const started = feed.onModuleInit();
    await pass();
    expect(subscriber.subscribe).toHaveBeenCalledWith(API_KEY_CHANGES_CHANNEL);
    subscriber.answerPings();
    await started;
    await cache.load('h', async () => principal);
  });
  afterEach(() => {
    feed.onApplicationShutdown();
    jest.useRealTimers();
  });

  it('serves the cache while pings are answered', async () => {
    for (let i = 0; i < 8; i++) {
      await pass(250);
      subscriber.answerPings();
      await pass();
    }
    expect(cache.peek('h')).toBe(principal);
  });

  it('stops serving it one lease after the last answered ping was sent, when Redis goes quiet', async () => {
    const lastAnsweredAt = Date.now();
    await pass(250);
    // Pings go out but are not answered any more.
    expect(subscriber.ping).toHaveBeenCalledTimes(2);
    await pass(CACHE_LEASE_MS - 260);
    expect(cache.peek('h')).toBe(principal);
    await pass(lastAnsweredAt + CACHE_LEASE_MS - Date.now());
    expect(cache.peek('h')).toBeUndefined();
    // One ping at a time: no pile-up while Redis is quiet.
    expect(subscriber.ping).toHaveBeenCalledTimes(2);
  });

  it('renews a lapsed lease on demand with a fresh ping, so a busy process need not look keys up', async () => {
    await pass(CACHE_LEASE_MS + 250);
    expect(cache.peek('h')).toBeUndefined();
    const renewal = feed.renewLease();
    // The ping under way was sent before the lapse: its pong does not renew it, a new one is sent.
    subscriber.answerPings();
    await pass();
    subscriber.answerPings();
    await pass();
    expect(await renewal).toBe(true);
    expect(cache.peek('h')).toBe(principal);
  });

  it('gives up renewing when Redis does not answer in time, or when the subscription is down', async () => {
    await pass(CACHE_LEASE_MS + 250);
    const renewal = feed.renewLease();
    await pass(500);
    expect(await renewal).toBe(false);
    subscriber.emit('close');
    expect(await feed.renewLease()).toBe(false);
    expect(cache.peek('h')).toBeUndefined();
  });

  it('forgets a key whose revocation is announced, and ignores other channels and other messages', async () => {
    subscriber.emit('message', 'another-channel', JSON.stringify({ revokedKeyId: 'k' }));
    subscriber.emit('message', API_KEY_CHANGES_CHANNEL, 'garbage');
    expect(cache.peek('h')).toBe(principal);
    subscriber.emit('message', API_KEY_CHANGES_CHANNEL, JSON.stringify({ revokedKeyId: 'k' }));
    expect(cache.peek('h')).toBeUndefined();
  });

  it('forgets an unknown hash whose key creation is announced', async () => {
    await cache.load('g', async () => null);
    expect(cache.peek('g')).toBeNull();
    subscriber.emit('message', API_KEY_CHANGES_CHANNEL, JSON.stringify({ createdKeyHash: 'g' }));
    expect(cache.peek('g')).toBeUndefined();
  });

  it('distrusts the cache when the connection drops, and clears it at the first answered ping after', async () => {
    subscriber.emit('close');
    expect(cache.peek('h')).toBeUndefined();
    await pass(250);
    subscriber.answerPings();
    await pass();
    // Trusted again, but what was cached before the drop is gone: announcements may have been lost.
    expect(cache.hashes()).toEqual([]);
    await cache.load('h', async () => principal);
    expect(cache.peek('h')).toBe(principal);
  });

  it('disconnects its subscriber on shutdown', () => {
    feed.onApplicationShutdown();
    expect(subscriber.disconnect).toHaveBeenCalled();
  });
});
