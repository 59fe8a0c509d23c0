import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator, type HealthCheckResult } from '@nestjs/terminus';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { RedisHealthIndicator } from './redis.health';

/** Probes for the orchestrator: no key, no rate limit (docs/api.md §15.1). */
@ApiTags('Operations')
@Public()
@Controller()
export class HealthController {
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

  /** Readiness: PostgreSQL and Redis answer; 503 (with Retry-After) while either does not. */
  @Get('readyz')
  @ApiOkResponse({ description: 'PostgreSQL and Redis answer.' })
  @ApiServiceUnavailableResponse({ description: 'PostgreSQL or Redis does not answer.' })
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.database.pingCheck('database', { timeout: 2000 }), () => this.redis.isHealthy()]);
    } catch (error) {
      res.status(503).setHeader('Retry-After', '5');
      const response = (error as { getResponse?: () => HealthCheckResult }).getResponse?.();
      return response ?? { status: 'error', details: {} };
    }
  }
}
