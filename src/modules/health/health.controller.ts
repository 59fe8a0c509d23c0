import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator, type HealthCheckResult } from '@nestjs/terminus';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { RecentResult } from './recent-result';
import { RedisHealthIndicator } from './redis.health';

/** How long a readiness answer is reused: a flood of probes costs PostgreSQL and Redis one check a second. */
const READINESS_REUSE_MS = 1000;

interface Readiness {
  ready: boolean;
  result: HealthCheckResult;
}

/** Probes for the orchestrator: no key, no rate limit, cheap to call (docs/api.md §15.1). */
@ApiTags('Operations')
@Public()
@Controller()
export class HealthController {
  private readonly readiness = new RecentResult(READINESS_REUSE_MS, () => this.checkReadiness());

  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  /** Liveness: the process answers. */
  @Get('healthz')
  @ApiOkResponse({ description: 'The process is alive.' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: PostgreSQL and Redis answer; 503 (with Retry-After) while either does not. Checked at most once a second. */
  @Get('readyz')
  @ApiOkResponse({ description: 'PostgreSQL and Redis answer.' })
  @ApiServiceUnavailableResponse({ description: 'PostgreSQL or Redis does not answer.' })
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthCheckResult> {
    const { ready, result } = await this.readiness.get();
    if (!ready) res.status(503).setHeader('Retry-After', '5');
    return result;
  }

  private async checkReadiness(): Promise<Readiness> {
    try {
      return { ready: true, result: await this.health.check([() => this.database.pingCheck('database', { timeout: 2000 }), () => this.redis.isHealthy()]) };
    } catch (error) {
      const response = (error as { getResponse?: () => HealthCheckResult }).getResponse?.();
      return { ready: false, result: response ?? { status: 'error', details: {} } };
    }
  }
}
