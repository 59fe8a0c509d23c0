import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import { metricsRegistry } from './metrics-registry';

/** The pools of every app of this process (one in production); the gauges add them up. */
const pools = new Set<Pool>();

const sum = (read: (pool: Pool) => number) => [...pools].reduce((total, pool) => total + read(pool), 0);

const poolGauge = (name: string, help: string, read: (pool: Pool) => number) =>
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    collect() {
      this.set(sum(read));
    },
  });

poolGauge(
  'engagement_db_pool_in_use',
  'PostgreSQL connections of this process lent to a query or transaction',
  (p) => p.totalCount - p.idleCount,
);
poolGauge('engagement_db_pool_idle', 'PostgreSQL connections of this process open and free', (p) => p.idleCount);
poolGauge(
  'engagement_db_pool_waiting',
  'Queries of this process waiting for a free connection (the pool is exhausted while above 0)',
  (p) => p.waitingCount,
);
poolGauge(
  'engagement_db_pool_max',
  'Most PostgreSQL connections this process opens (DATABASE_POOL_SIZE)',
  (p) => p.options.max ?? 10,
);

/** Registers the TypeORM pg pool for the gauges above while the app runs. */
@Injectable()
export class DatabasePoolMetrics implements OnApplicationBootstrap, OnModuleDestroy {
  private pool: Pool | undefined;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  onApplicationBootstrap(): void {
    // TypeORM's PostgresDriver keeps its pg Pool as `master` (no replicas configured).
    this.pool = (this.db.driver as unknown as { master?: Pool }).master;
    if (this.pool) pools.add(this.pool);
  }

  onModuleDestroy(): void {
    if (this.pool) pools.delete(this.pool);
  }
}
