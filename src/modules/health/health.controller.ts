import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { ReadinessService, type Readiness } from './readiness';
import { RecentResult } from './recent-result';

/** A readiness check answers every probe of the next second (a flood costs one check per second). */
const READINESS_REUSE_MS = 1000;

/** Probes for the orchestrator: no key, no rate limit (docs/api.md §15.1). */
@ApiTags('Operations')
@Public()
@Controller()
export class HealthController {
  private readonly recentReadiness: RecentResult<Readiness>;

  constructor(readiness: ReadinessService) {
    this.recentReadiness = new RecentResult(READINESS_REUSE_MS, () => readiness.check());
  }

  /** Liveness: the process answers. */
  @Get('healthz')
  @ApiOkResponse({ description: 'The process is alive.' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: PostgreSQL and Redis answer; 503 (with Retry-After) naming the one that does not. */
  @Get('readyz')
  @ApiOkResponse({ description: 'PostgreSQL and Redis answer: {"status":"ok","checks":{"database":"up","redis":"up"}}.' })
  @ApiServiceUnavailableResponse({ description: 'PostgreSQL or Redis does not answer: {"status":"unavailable","checks":{"database":"up","redis":"down"}}.' })
  async ready(@Res({ passthrough: true }) res: Response): Promise<Readiness> {
    const readiness = await this.recentReadiness.get();
    if (readiness.status !== 'ok') res.status(503).setHeader('Retry-After', '5');
    return readiness;
  }
}
