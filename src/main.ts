import 'reflect-metadata';
import { loadConfigOrExit } from './config/environment';
import { createHttpApp } from './http-app';
import { startWorker } from './worker';

/**
 * Entry point of the image. APP_ROLE picks what runs: `api` (HTTP), `worker` (queues) or `all`.
 * On SIGTERM Nest stops accepting connections, lets in-flight requests and active jobs finish and
 * closes its connections; SHUTDOWN_TIMEOUT_MS caps how long that may take.
 */
async function bootstrap(): Promise<void> {
  const config = loadConfigOrExit();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => setTimeout(() => process.exit(1), config.shutdownTimeoutMs).unref());
  }
  if (config.appRole === 'worker') return startWorker(config);
  const app = await createHttpApp(config);
  await app.listen(config.port);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Startup failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
