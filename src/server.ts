import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { applyServerTimeouts } from './common/http/server-timeouts';
import type { AppConfig } from './config/environment';
import { createHttpApp } from './http-app';
import { startLocalServices } from './local-services';
import { firstRunBanner, seedDemoOnFirstRun, seedsOnFirstRun } from './modules/demo/first-run';
import { stopOnSignals } from './stop-on-signals';
import { createWorkerApp } from './worker';

/**
 * Started by main.ts (the entry point of the image and of `npm start`). APP_ROLE picks what runs: `api` (HTTP), `worker`
 * (queues) or `all`. Development without DATABASE_URL / REDIS_URL runs embedded services first.
 * On SIGTERM/SIGINT it drains, then stops accepting, lets in-flight requests and active jobs finish,
 * closes its connections and only then leaves the local services (src/stop-on-signals.ts).
 */
export async function bootstrap(config: AppConfig, stopTracing?: () => Promise<void>): Promise<void> {
  const started = await startLocalServices(config, { migrate: true, redis: true });
  // Spans still buffered are sent once the app has stopped, before the process exits.
  const services = stopTracing
    ? { ...started, release: () => started.release().finally(() => stopTracing().catch(() => undefined)) }
    : started;
  let app: INestApplication | undefined;
  try {
    app = config.appRole === 'worker' ? await createWorkerApp(config) : await createHttpApp(config);
    stopOnSignals(app, config, services);
    await app.listen(config.port);
    applyServerTimeouts(app.getHttpServer() as Server, config.timeouts);
  } catch (error) {
    await app?.close().catch(() => undefined);
    await services.release().catch(() => undefined);
    throw error;
  }
  if (seedsOnFirstRun(config)) {
    const seed = await seedDemoOnFirstRun(app);
    if (seed) process.stdout.write(`${firstRunBanner(seed, `http://localhost:${config.port}`)}\n`);
  }
  if (config.nodeEnv === 'development')
    process.stdout.write(`Ready: ${config.appRole === 'worker' ? 'workers' : `http://localhost:${config.port}`}\n`);
}
