import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/auth.decorators';
import { NeedsNoDependency } from '../../common/http/openapi-document';
import { metricsRegistry } from '../../common/metrics/metrics-registry';
import { RecentResult } from './recent-result';

/** How long a rendering of the metrics is reused: scrapers poll every few seconds, a flood costs one rendering a second. */
export const METRICS_REUSE_MS = 1000;

@ApiTags('Operations')
@Public()
@Controller()
export class MetricsController {
  private readonly rendering = new RecentResult(METRICS_REUSE_MS, () => metricsRegistry.metrics());

  @Get('metrics')
  @ApiOperation({ summary: 'Prometheus metrics' })
  @ApiProduces('text/plain')
  @NeedsNoDependency()
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return this.rendering.get();
  }
}
