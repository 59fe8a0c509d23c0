import 'reflect-metadata';
import { loadConfigOrExit } from './config/environment';
import { writeJsonLine } from './json-line';
import { logUnhandledErrors } from './process-output';

/**
 * Entry point of the image and of `npm start`. Tracing, when OTEL_TRACES_EXPORTER asks for it, must
 * patch http, express, pg and ioredis before anything requires them: the app (server.ts) is loaded
 * only after it. Without it neither the SDK nor any instrumentation is loaded.
 */
async function main(): Promise<void> {
  logUnhandledErrors();
  const config = loadConfigOrExit();
  const stopTracing =
    config.operations.tracesExporter === null ? undefined : (await import('./tracing.ts')).startTracing();
  const { bootstrap } = await import('./server.ts');
  await bootstrap(config, stopTracing);
}

main().catch((error: unknown) => {
  writeJsonLine('fatal', 'Startup failed', { reason: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
