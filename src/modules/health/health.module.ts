import { Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { requireOperatorToken } from '../../common/http/operator-token';
import { AppConfigService } from '../../config/app-config';
import type { AppConfig } from '../../config/environment';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics';
import { MetricsListener } from './metrics-listener';
import { ReadinessService } from './readiness';

/** Whether /metrics is a route of the app on PORT. */
const metricsOnPort = (config: AppConfig) => config.operations.metricsEnabled && config.operations.metricsPort === null;

/**
 * Probes, and /metrics unless METRICS_ENABLED=false (then it is an unknown route: 404): on PORT, or
 * with METRICS_PORT set only on that port (MetricsListener; on PORT it is then an unknown route).
 */
@Module({})
export class HealthModule implements NestModule {
  constructor(private readonly config: AppConfigService) {}

  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: HealthModule,
      controllers: [HealthController, ...(metricsOnPort(config) ? [MetricsController] : [])],
      providers: [
        ReadinessService,
        ...(config.operations.metricsEnabled && config.operations.metricsPort !== null ? [MetricsListener] : []),
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    const { metricsToken } = this.config.values.operations;
    if (metricsOnPort(this.config.values) && metricsToken !== null)
      consumer.apply(requireOperatorToken(metricsToken, 'metrics')).forRoutes('metrics');
  }
}
