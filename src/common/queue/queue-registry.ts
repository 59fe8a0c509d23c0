import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import Bull from 'bull';

/** Every Bull queue this app registered, found by type (no module names its queues here). */
@Injectable()
export class QueueRegistry {
  constructor(private readonly discovery: DiscoveryService) {}

  all(): Bull.Queue[] {
    const queues = new Set<Bull.Queue>();
    for (const { instance } of this.discovery.getProviders()) {
      if (instance instanceof Bull) queues.add(instance as Bull.Queue);
    }
    return [...queues];
  }
}
