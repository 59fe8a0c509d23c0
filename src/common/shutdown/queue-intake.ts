import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import Queue from 'bull';

/**
 * Stops every Bull queue of this process from taking new jobs (a local pause); a job already
 * active carries on, and the queue's close waits for it. Queues are found by type, not by name.
 */
@Injectable()
export class QueueIntake {
  constructor(private readonly discovery: DiscoveryService) {}

  stop(): void {
    for (const { instance } of this.discovery.getProviders()) {
      // Not awaited: a queue whose Redis is down would hold the shutdown here (SHUTDOWN_TIMEOUT_MS bounds its close).
      if (instance instanceof Queue) instance.pause(true, true).catch(() => undefined);
    }
  }
}
