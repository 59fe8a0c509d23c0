import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * One registry per process: Node's default metrics plus the app's (docs/operations.md "Metrics and
 * alerts"). Metrics are created once, at module load, so that several Nest apps in one process
 * (tests) share them instead of registering a name twice; what they read is registered per app.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
