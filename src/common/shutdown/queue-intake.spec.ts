import type { DiscoveryService } from '@nestjs/core';
import Queue from 'bull';
import { QueueIntake } from './queue-intake';

describe('QueueIntake', () => {
  /** A Bull queue as far as `instanceof` can tell, without a Redis connection. */
  const queueWithPause = (pause: jest.Mock) => Object.assign(Object.create(Queue.prototype) as Queue.Queue, { pause });

  it('pauses every Bull queue locally without waiting for active jobs, and nothing else', () => {
    const pauses = [jest.fn().mockResolvedValue(undefined), jest.fn().mockResolvedValue(undefined)];
    const other = { pause: jest.fn() };
    const discovery = { getProviders: () => [{ instance: queueWithPause(pauses[0]) }, { instance: other }, { instance: undefined }, { instance: queueWithPause(pauses[1]) }] };
    new QueueIntake(discovery as unknown as DiscoveryService).stop();
    for (const pause of pauses) expect(pause).toHaveBeenCalledWith(true, true);
    expect(other.pause).not.toHaveBeenCalled();
  });

  it('handles a queue that cannot pause (its Redis is down) instead of leaving the rejection unhandled', () => {
    const paused = { catch: jest.fn() };
    const discovery = { getProviders: () => [{ instance: queueWithPause(jest.fn().mockReturnValue(paused)) }] };
    new QueueIntake(discovery as unknown as DiscoveryService).stop();
    expect(paused.catch).toHaveBeenCalledTimes(1);
  });
});
