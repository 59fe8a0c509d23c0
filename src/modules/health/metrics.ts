import { Controller, Get, Header, Injectable, type NestMiddleware } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { Histogram } from 'prom-client';
import { Public } from '../../common/auth/auth.decorators';
import { metricsRegistry } from '../../common/metrics/metrics-registry';
import { RecentResult } from './recent-result';

/** How long a rendering of the metrics is reused: scrapers poll every few seconds, a flood costs one rendering a second. */
const METRICS_REUSE_MS = 1000;

/** Request durations by route template, in the process's registry with the app's other metrics. */
const requestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by method, route template and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

@Injectable()
export class RequestMetricsMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    const stop = requestDuration.startTimer();
    res.on('finish', () => {
      // The template, not the path: ids in paths would explode the label set.
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      stop({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  }
}

@ApiTags('Operations')
@Public()
@Controller()
export class MetricsController {
  private readonly rendering = new RecentResult(METRICS_REUSE_MS, () => metricsRegistry.metrics());

  @Get('metrics')
  @ApiOperation({ summary: 'Prometheus metrics' })
  @ApiProduces('text/plain')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return this.rendering.get();
  }
}
