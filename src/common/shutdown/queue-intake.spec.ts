import type { DiscoveryService } from '@nestjs/core';
import Queue from 'bull';
import type Redis from 'ioredis';
import { QueueIntake } from './queue-intake';

describe('QueueIntake', () => {
  /** A Bull queue as far as `instanceof` can tell, without a Redis connection. */
  const queueWithPause = (pause: jest.Mock) => Object.assign(Object.create(Queue.prototype) as Queue.Queue, { pause });
  const redis = { status: 'ready' };
  const intake = (discovery: object) =>
    new QueueIntake(discovery as unknown as DiscoveryService, redis as unknown as Redis);
  afterEach(() => {
    jest.clearAllTimers();
    redis.status = 'ready';
    jest.useRealTimers();
  });

  it('pauses every Bull queue locally without waiting for active jobs, and nothing else', () => {
    const pauses = [jest.fn().mockResolvedValue(undefined), jest.fn().mockResolvedValue(undefined)];
    const other = { pause: jest.fn() };
    const discovery = {
      getProviders: () => [
        { instance: queueWithPause(pauses[0]) },
        { instance: other },
        { instance: undefined },
        { instance: queueWithPause(pauses[1]) },
      ],
    };
    intake(discovery).stop();
    for (const pause of pauses) expect(pause).toHaveBeenCalledWith(true, true);
    expect(other.pause).not.toHaveBeenCalled();
  });

  it('handles a queue that cannot pause (its Redis is down) instead of leaving the rejection unhandled', () => {
    const paused = { catch: jest.fn() };
    const discovery = { getProviders: () => [{ instance: queueWithPause(jest.fn().mockReturnValue(paused)) }] };
    intake(discovery).stop();
    expect(paused.catch).toHaveBeenCalledTimes(1);
  });

  it("makes Bull's close wait for the active jobs only: no forced reconnection whose failure nobody would observe", async () => {
    let finishJob!: () => void;
    const job = new Promise<void>((resolve) => (finishJob = resolve));
    const connect = jest.fn().mockRejectedValue(new Error('Connection is closed.'));
    const queue = Object.assign(queueWithPause(jest.fn().mockResolvedValue(undefined)), {
      processing: { 1: job },
      bclientInitialized: true,
      bclient: { status: 'reconnecting', connect, quit: connect, disconnect: jest.fn(), once: jest.fn() },
    }) as Queue.Queue & { whenCurrentJobsFinished: () => Promise<void> };
    intake({ getProviders: () => [{ instance: queue }] }).stop();
    let finished = false;
    void queue.whenCurrentJobsFinished().then(() => (finished = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(false);
    finishJob();
    await new Promise((resolve) => setImmediate(resolve));
    expect({ finished, connects: connect.mock.calls.length }).toEqual({ finished: true, connects: 0 });
  });

  it('tells whether Redis was away since stop: the shared connection reconnecting, or a closing queue not answering a ping', async () => {
    jest.useFakeTimers();
    const answering = Object.assign(queueWithPause(jest.fn().mockResolvedValue(undefined)), {
      client: { ping: jest.fn().mockResolvedValue('PONG') },
      closing: Promise.resolve(),
    });
    const first = intake({ getProviders: () => [{ instance: answering }] });
    first.stop();
    await jest.advanceTimersByTimeAsync(1000);
    expect(first.redisWasAway()).toBe(false);
    redis.status = 'reconnecting';
    await jest.advanceTimersByTimeAsync(100);
    redis.status = 'end';
    await jest.advanceTimersByTimeAsync(100);
    expect(first.redisWasAway()).toBe(true);

    redis.status = 'ready';
    const stalled = Object.assign(queueWithPause(jest.fn().mockResolvedValue(undefined)), {
      client: { ping: jest.fn(() => new Promise(() => undefined)) },
      closing: Promise.resolve(),
    });
    const second = intake({ getProviders: () => [{ instance: stalled }] });
    second.stop();
    await jest.advanceTimersByTimeAsync(300);
    expect(second.redisWasAway()).toBe(false);
    await jest.advanceTimersByTimeAsync(600);
    expect(second.redisWasAway()).toBe(true);
  });
});
