import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { HealthController } from './health.controller';
import { MetricsController, RequestMetricsMiddleware } from './metrics';
import { ReadinessService } from './readiness';

@Module({
  controllers: [HealthController, MetricsController],
  providers: [ReadinessService],
})
export class HealthModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestMetricsMiddleware).forRoutes('*path');
  }
}
