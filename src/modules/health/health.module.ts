import { Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { requireOperatorToken } from '../../common/http/operator-token';
import { AppConfigService } from '../../config/app-config';
import type { AppConfig } from '../../config/environment';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics';
import { ReadinessService } from './readiness';

/** Probes, and /metrics unless METRICS_ENABLED=false (then it is an unknown route: 404). */
@Module({})
export class HealthModule implements NestModule {
  constructor(private readonly config: AppConfigService) {}

  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: HealthModule,
      controllers: [HealthController, ...(config.operations.metricsEnabled ? [MetricsController] : [])],
      providers: [ReadinessService],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    const { metricsEnabled, metricsToken } = this.config.values.operations;
    if (metricsEnabled && metricsToken !== null) consumer.apply(requireOperatorToken(metricsToken, 'metrics')).forRoutes('metrics');
  }
}
