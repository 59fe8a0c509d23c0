import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import Bull from 'bull';
import type { IncomingMessage } from 'node:http';

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
 * so each job run is a span of its own (a root: a job is not part of the request that queued it).
 * Statement parameters are never recorded (instrumentation-pg's default), nor request bodies.
 * Returns what flushes and stops it.
 */
export function startTracing(): () => Promise<void> {
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]) }),
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
  const tracer = trace.getTracer('engagement-api/bull');
  const prototype = Bull.prototype as unknown as { setHandler: SetHandler };
  const setHandler = prototype.setHandler;
  prototype.setHandler = function (name, handler) {
    if (typeof handler !== 'function' || handler.length > 1) return setHandler.call(this, name, handler);
    const queue = this.name;
    const run = handler as Handler;
    const traced = function (this: unknown, job: Bull.Job) {
      const attributes = { 'messaging.system': 'bull', 'messaging.destination.name': queue, 'messaging.operation.type': 'process', 'bull.job.name': job.name, 'bull.job.attempt': job.attemptsMade + 1 };
      return tracer.startActiveSpan(`process ${queue}`, { kind: SpanKind.CONSUMER, attributes }, ROOT_CONTEXT, async (span) => {
        try {
          return await run.call(this, job);
        } catch (error) {
          // The type only: an error's message may quote the job's data.
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'Error' });
          throw error;
        } finally {
          span.end();
        }
      });
    };
    return setHandler.call(this, name, traced);
  };
}
