import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import type { AppConfig } from './config/environment';

/** Queue workers without an HTTP server (APP_ROLE=worker). Shutdown lets active jobs finish. */
export async function startWorker(config: AppConfig): Promise<void> {
  const app = await NestFactory.createApplicationContext(AppModule.forRole(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  await app.init();
}
