import type { NextFunction, Request, Response } from 'express';
import { Histogram } from 'prom-client';
import { metricsRegistry } from './metrics-registry';

/** Request durations by route template, in the process's registry with the app's other metrics. */
const requestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by method, route template and status',
  labelNames: ['method', 'route', 'status'],
  // Up to 10 s: statement timeouts are 5 s and an answer through a stalled database takes about 6 s;
  // past the last bucket only +Inf would tell them apart.
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 7.5, 10],
  registers: [metricsRegistry],
});

/** One histogram child per (method, route template, status): prom-client hashes a label object on every observe otherwise. */
const durationByLabels = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();

function durationOf(method: string, route: string, status: number): Histogram.Internal<'method' | 'route' | 'status'> {
  const key = `${method} ${status} ${route}`;
  let child = durationByLabels.get(key);
  if (child === undefined) {
    child = requestDuration.labels({ method, route, status: String(status) });
    durationByLabels.set(key, child);
  }
  return child;
}

/**
 * Records every request's duration once it is answered. Mounted on the express app ahead of
 * routing (http-app.ts, worker.ts): as a Nest middleware for every path it cost a route match and
 * Nest's proxy on each request.
 */
export function recordRequestDuration(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    // The template, not the path: ids in paths would explode the label set.
    const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
    durationOf(req.method, route, res.statusCode).observe(Number(process.hrtime.bigint() - started) / 1e9);
  });
  next();
}
