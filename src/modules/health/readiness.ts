import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Cluster } from 'ioredis';
import { DataSource } from 'typeorm';
import { within } from '../../common/errors/dependency-failure';
import { REDIS, type RedisClient } from '../../common/redis/redis.module';

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
    @Inject(REDIS) private readonly redis: RedisClient,
  ) {}

  async check(): Promise<Readiness> {
    const [database, redis] = await Promise.all([
      stateOf(within(this.db.query('SELECT 1'), DATABASE_CHECK_MS, 'PostgreSQL')),
      stateOf(within(redisAnswers(this.redis), REDIS_CHECK_MS, 'Redis')),
    ]);
    return { status: database === 'up' && redis === 'up' ? 'ok' : 'unavailable', checks: { database, redis } };
  }
}

/**
 * One Redis answers a ping. A cluster: every master it knows answers, and the cluster itself says it
 * serves every slot (a master unreachable past cluster-node-timeout fails the cluster as a whole).
 */
async function redisAnswers(redis: RedisClient): Promise<void> {
  if (!(redis instanceof Cluster)) {
    await redis.ping();
    return;
  }
  const [info] = await Promise.all([redis.cluster('INFO'), ...redis.nodes('master').map((node) => node.ping())]);
  if (!info.includes('cluster_state:ok')) throw new Error('The cluster does not serve every slot');
}

const stateOf = (probe: Promise<unknown>): Promise<DependencyState> =>
  probe.then(
    () => 'up',
    () => 'down',
  );
