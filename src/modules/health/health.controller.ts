import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { NeedsNoDependency } from '../../common/http/openapi-document';
import { Draining } from '../../common/shutdown/draining';
import { ReadinessService, whileDraining, type Readiness } from './readiness';
import { LivenessResponse, ReadinessResponse } from './dto/health.response';
import { RecentResult } from './recent-result';

/** A readiness check answers every probe of the next second (a flood costs one check per second). */
const READINESS_REUSE_MS = 1000;

/** Probes for the orchestrator: no key, no rate limit (docs/api.md §15.1). */
@ApiTags('Operations')
@Public()
@Controller()
export class HealthController {
  private readonly recentReadiness: RecentResult<Readiness>;

  constructor(
    readiness: ReadinessService,
    private readonly draining: Draining,
  ) {
    this.recentReadiness = new RecentResult(READINESS_REUSE_MS, () => readiness.check());
  }

  /** Liveness: the process answers. */
  @Get('healthz')
  @ApiOperation({ summary: 'Liveness probe' })
  @ApiOkResponse({ type: LivenessResponse, description: 'The process is alive.' })
  @NeedsNoDependency()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: PostgreSQL and Redis answer and the process is not shutting down; else 503 (with Retry-After) saying why. */
  @Get('readyz')
  @ApiOperation({ summary: 'Readiness probe' })
  @ApiOkResponse({ type: ReadinessResponse, description: 'PostgreSQL and Redis answer.' })
  @ApiServiceUnavailableResponse({
    type: ReadinessResponse,
    description:
      'PostgreSQL or Redis does not answer: {"status":"unavailable","checks":{"database":"up","redis":"down"}}; or the process is shutting down (it still serves meanwhile): {"status":"unavailable","checks":{"database":"up","redis":"up"},"draining":true}.',
  })
  async ready(@Res({ passthrough: true }) res: Response): Promise<Readiness> {
    // The reused result supplies only the checks: a drain that began since it was computed shows at once.
    const checked = await this.recentReadiness.get();
    const readiness = this.draining.active ? whileDraining(checked) : checked;
    if (readiness.status !== 'ok') res.status(503).setHeader('Retry-After', '5');
    return readiness;
  }
}
