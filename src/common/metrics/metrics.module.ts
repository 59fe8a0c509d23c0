import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { QueueRegistry } from '../queue/queue-registry';
import { DatabasePoolMetrics } from './database-pool-metrics';
import { QueueMetrics } from './queue-metrics';

/** Metrics read from the app's infrastructure: its Bull queues and its PostgreSQL pool. */
@Module({
  imports: [DiscoveryModule],
  providers: [QueueRegistry, QueueMetrics, DatabasePoolMetrics],
  exports: [QueueRegistry],
})
export class MetricsModule {}
