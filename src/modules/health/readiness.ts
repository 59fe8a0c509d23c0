import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { within } from '../../common/errors/dependency-failure';
import { REDIS } from '../../common/redis/redis.module';

export type DependencyState = 'up' | 'down';

export interface Readiness {
  status: 'ok' | 'unavailable';
  checks: { database: DependencyState; redis: DependencyState };
  /** Present while the process shuts down: it still serves, but takes no new traffic. */
  draining?: true;
}

/** A draining process is not ready, whatever its dependencies say. */
export const whileDraining = (readiness: Readiness): Readiness => ({
  ...readiness,
  status: 'unavailable',
  draining: true,
});

/** PostgreSQL answered within this long, or counts as down. */
const DATABASE_CHECK_MS = 2000;
/** Redis answered within this long, or counts as down. */
const REDIS_CHECK_MS = 1000;

/** Whether the dependencies answer, each within a bound and without any driver text. */
@Injectable()
export class ReadinessService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async check(): Promise<Readiness> {
    const [database, redis] = await Promise.all([
      stateOf(within(this.db.query('SELECT 1'), DATABASE_CHECK_MS, 'PostgreSQL')),
      stateOf(within(this.redis.ping(), REDIS_CHECK_MS, 'Redis')),
    ]);
    return { status: database === 'up' && redis === 'up' ? 'ok' : 'unavailable', checks: { database, redis } };
  }
}

const stateOf = (probe: Promise<unknown>): Promise<DependencyState> =>
  probe.then(
    () => 'up',
    () => 'down',
  );
