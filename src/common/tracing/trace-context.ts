import { context, isSpanContextValid, trace, type Context, type Link, type SpanContext } from '@opentelemetry/api';

/**
 * What joins logs and jobs to traces, on @opentelemetry/api alone: the API is a no-op until
 * tracing.ts registers the SDK (OTEL_TRACES_EXPORTER), so without tracing nothing here finds a span
 * and every function returns at its first check.
 */

/** The trace context a job carries from where it was queued: W3C `traceparent` only (no tracestate, no baggage: those are the caller's text). */
export interface JobTraceContext {
  traceparent: string;
}

export interface TracedJobData {
  trace?: JobTraceContext;
}

export interface LogTraceFields {
  trace_id?: string;
  span_id?: string;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The active span's ids, for pino's `mixin` (every line of the request or job being run). A new
 * object each time, even empty: pino merges the line's own fields into what the mixin returns.
 */
export function logTraceFields(): LogTraceFields {
  const span = trace.getSpan(context.active());
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** `traceparent` of the active span (W3C Trace Context, version 00), or undefined without one. */
export function activeTraceparent(): string | undefined {
  const spanContext = trace.getSpan(context.active())?.spanContext();
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return undefined;
  return `00-${spanContext.traceId}-${spanContext.spanId}-${(spanContext.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/**
 * A job's data with the active span's context under `trace`, so that the job's run links to the
 * request (or job) that queued it; the data itself when no span is active. Operators see it in
 * Bull's data (/admin/queues); no API answer reads job data.
 */
export function withTraceContext<T>(data: T): T {
  const traceparent = activeTraceparent();
  return traceparent === undefined ? data : { ...data, trace: { traceparent } };
}

/** The span context a job's data carries (see withTraceContext), or undefined when it has none or it is malformed. */
export function queuedBy(data: unknown): SpanContext | undefined {
  const traceparent = (data as TracedJobData | null | undefined)?.trace?.traceparent;
  const match = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent) : null;
  if (match === null) return undefined;
  const spanContext: SpanContext = {
    traceId: match[1],
    spanId: match[2],
    traceFlags: parseInt(match[3], 16),
    isRemote: true,
  };
  return isSpanContextValid(spanContext) ? spanContext : undefined;
}

/** The link from a job's span to the span that queued it. */
export function linkToQueuer(data: unknown): Link[] {
  const spanContext = queuedBy(data);
  return spanContext === undefined ? [] : [{ context: spanContext }];
}

/**
 * The context a job attempt ran in, by job object (Bull hands the same object to the handler and to
 * its 'completed'/'failed' listeners, which run outside that context): their log lines carry the
 * run's trace ids too.
 */
const runContexts = new WeakMap<object, Context>();

export function rememberRunContext(job: object, runContext: Context): void {
  runContexts.set(job, runContext);
}

/** Calls `fn` in the context `job`'s run had (as is, when tracing is off or the job ran elsewhere). */
export function inRunContextOf<T>(job: object, fn: () => T): T {
  const runContext = runContexts.get(job);
  return runContext === undefined ? fn() : context.with(runContext, fn);
}
