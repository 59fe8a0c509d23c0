import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import Bull from 'bull';
import type { IncomingMessage } from 'node:http';
import { linkToQueuer, rememberRunContext } from './common/tracing/trace-context';

/** Probes and scrapes would be most of the traces and say nothing. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

type Handler = (job: Bull.Job) => Promise<unknown>;
/** Bull 4's own method that registers a processor (not in its type declarations). */
type SetHandler = (this: Bull.Queue, name: string, handler: unknown) => void;

/**
 * OpenTelemetry tracing, loaded by main.ts before anything else only when OTEL_TRACES_EXPORTER names
 * an exporter. The SDK reads the standard variables itself (OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, ...).
 * HTTP, Express, PostgreSQL and Redis are instrumented; Bull has no instrumentation for version 4,
 * so each job run is a span of its own: a root (a job is not part of the request that queued it,
 * which answered long before and may be retried hours later) with a link to the span that queued it,
 * whose context the job's data carries (common/tracing/trace-context.ts, added by enqueue).
 * Statement parameters are never recorded (instrumentation-pg's default), nor request bodies.
 * Returns what flushes and stops it.
 */
export function startTracing(): () => Promise<void> {
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]),
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
      new IORedisInstrumentation(),
    ],
  });
  sdk.start();
  traceBullJobs();
  return () => sdk.shutdown();
}

function traceBullJobs(): void {
  const prototype = Bull.prototype as unknown as { setHandler: SetHandler };
  const setHandler = prototype.setHandler;
  prototype.setHandler = function (name, handler) {
    if (typeof handler !== 'function' || handler.length > 1) return setHandler.call(this, name, handler);
    return setHandler.call(this, name, traceJobRuns(this.name, handler as Handler));
  };
}

/**
 * `run` with each call a consumer span of its own trace (active while it runs, so its queries and
 * log lines belong to it) linked to the span that queued the job.
 */
export function traceJobRuns(queue: string, run: Handler): Handler {
  const tracer = trace.getTracer('engagement-api/bull');
  return function (this: unknown, job: Bull.Job) {
    const attributes = {
      'messaging.system': 'bull',
      'messaging.destination.name': queue,
      'messaging.operation.type': 'process',
      'bull.job.name': job.name,
      'bull.job.attempt': job.attemptsMade + 1,
    };
    return tracer.startActiveSpan(
      `process ${queue}`,
      { kind: SpanKind.CONSUMER, attributes, links: linkToQueuer(job.data) },
      ROOT_CONTEXT,
      async (span) => {
        rememberRunContext(job, context.active());
        try {
          return await run.call(this, job);
        } catch (error) {
          // The type only: an error's message may quote the job's data.
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'Error' });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  };
}
