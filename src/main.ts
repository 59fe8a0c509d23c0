import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { applyServerTimeouts } from './common/http/server-timeouts';
import { loadConfigOrExit, type AppConfig } from './config/environment';
import { createHttpApp } from './http-app';
import { startLocalServices, type LocalServices } from './local-services';
import { firstRunBanner, seedDemoOnFirstRun, seedsOnFirstRun } from './modules/demo/first-run';
import { createWorkerApp } from './worker';

/**
 * Entry point of the image and of `npm start`. APP_ROLE picks what runs: `api` (HTTP), `worker`
 * (queues) or `all`. Development without DATABASE_URL / REDIS_URL runs embedded services first.
 * On SIGTERM/SIGINT the app stops accepting connections, lets in-flight requests and active jobs
 * finish, closes its connections and only then leaves the local services; SHUTDOWN_TIMEOUT_MS caps it.
 */
async function bootstrap(): Promise<void> {
  const config = loadConfigOrExit();
  const services = await startLocalServices(config, { migrate: true, redis: true });
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
  if (config.nodeEnv === 'development') process.stdout.write(`Ready: ${config.appRole === 'worker' ? 'workers' : `http://localhost:${config.port}`}\n`);
}

function stopOnSignals(app: INestApplication, config: AppConfig, services: LocalServices): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), config.shutdownTimeoutMs).unref();
    app
      .close()
      .then(() => services.release())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
          process.exit(1);
        },
      );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, stop);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Startup failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
