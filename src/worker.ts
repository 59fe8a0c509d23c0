import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { apiSecurityHeaders } from './common/http/security-headers';
import { recordRequestDuration } from './common/metrics/request-metrics';
import type { AppConfig } from './config/environment';

/**
 * Queue workers (APP_ROLE=worker). They serve only /healthz, /readyz and /metrics on PORT, for the
 * orchestrator's probes; no API routes.
 */
export async function createWorkerApp(config: AppConfig): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRole(config), { bufferLogs: true });
  app.disable('x-powered-by');
  app.use(recordRequestDuration);
  app.use(apiSecurityHeaders);
  app.useLogger(app.get(Logger));
  return app;
}
