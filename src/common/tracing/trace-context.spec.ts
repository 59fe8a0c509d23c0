import { trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import type Bull from 'bull';
import pino, { type LoggerOptions } from 'pino';
import type { Options } from 'pino-http';
import { traceJobRuns } from '../../tracing';
import { loadConfig } from '../../config/environment';
import { loggerParams } from '../logging';
import { activeTraceparent, inRunContextOf, logTraceFields, queuedBy, withTraceContext } from './trace-context';

/**
 * Issue 30 point 5, the pieces: log lines name the active span, a job's data carries the context
 * of the span that queued it and the job's span links to it. Spans go to an in-memory exporter;
 * test/tracing.e2e-spec.ts checks the same through real HTTP, Bull and an OTLP receiver.
 */

type Line = Record<string, unknown>;

/** A logger configured as the app's (loggerParams) for LOG_LEVEL=info and the given OTEL_TRACES_EXPORTER, writing into `lines`. */
function appLogger(tracesExporter: string | undefined, lines: Line[]) {
  const [options] = loggerParams(
    loadConfig({ LOG_LEVEL: 'info', ...(tracesExporter ? { OTEL_TRACES_EXPORTER: tracesExporter } : {}) }),
    { write: () => undefined },
  ).pinoHttp as [Options, unknown];
  return pino(options as LoggerOptions, { write: (line: string) => lines.push(JSON.parse(line) as Line) });
}

const fakeJob = (data: unknown, attemptsMade = 0) => ({ name: 'run-thing', data, attemptsMade }) as unknown as Bull.Job;

describe('without tracing', () => {
  it('finds no span: no log fields, job data unchanged', () => {
    expect(logTraceFields()).toEqual({});
    const data = { organizationId: 'org', id: 'job' };
    expect(withTraceContext(data)).toBe(data);
    expect(activeTraceparent()).toBeUndefined();
  });

  it('the app logger has no mixin when OTEL_TRACES_EXPORTER is unset', () => {
    const options = loggerParams(loadConfig({ LOG_LEVEL: 'info' })).pinoHttp as LoggerOptions;
    expect(options.mixin).toBeUndefined();
    const [traced] = loggerParams(loadConfig({ LOG_LEVEL: 'info', OTEL_TRACES_EXPORTER: 'otlp' }), {
      write: () => undefined,
    }).pinoHttp as [LoggerOptions];
    expect(traced.mixin).toBe(logTraceFields);
  });
});

describe('with tracing', () => {
  const exporter = new InMemorySpanExporter();
  const sdk = new NodeSDK({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
    instrumentations: [],
    autoDetectResources: false,
  });
  const tracer = () => trace.getTracer('test');

  beforeAll(() => sdk.start());
  afterAll(() => sdk.shutdown());
  beforeEach(() => exporter.reset());

  it('every line logged inside a span carries its trace_id and span_id; lines outside any span none', () => {
    const lines: Line[] = [];
    const logger = appLogger('otlp', lines);
    logger.info({ context: 'Test' }, 'before');
    const ids = tracer().startActiveSpan('request', (span) => {
      logger.info({ context: 'Test' }, 'inside');
      logger.child({ requestId: 'r1' }).warn({ email: 'ada@example.com' }, 'inside, from a child logger');
      span.end();
      return span.spanContext();
    });
    logger.info('after');
    expect(lines.map((l) => [l.msg, l.trace_id, l.span_id])).toEqual([
      ['before', undefined, undefined],
      ['inside', ids.traceId, ids.spanId],
      ['inside, from a child logger', ids.traceId, ids.spanId],
      ['after', undefined, undefined],
    ]);
    // What the mixin returns is merged into per line, never shared between lines.
    expect(lines[3]).not.toHaveProperty('context');
    // The redaction still applies to a traced line.
    expect(lines[2].email).toBe('[redacted]');
  });

  it('queues the active span as a W3C traceparent and reads it back; malformed contexts are ignored', () => {
    const { data, ids } = tracer().startActiveSpan('request', (span) => {
      span.end();
      return { data: withTraceContext({ organizationId: 'org', id: 'job' }), ids: span.spanContext() };
    });
    expect(data).toEqual({
      organizationId: 'org',
      id: 'job',
      trace: { traceparent: `00-${ids.traceId}-${ids.spanId}-01` },
    });
    expect(queuedBy(data)).toMatchObject({ traceId: ids.traceId, spanId: ids.spanId, isRemote: true });
    for (const trace of [
      undefined,
      null,
      'x',
      { traceparent: `00-${'0'.repeat(32)}-${ids.spanId}-01` },
      { traceparent: `00-${ids.traceId.toUpperCase()}-${ids.spanId}-01` },
    ]) {
      expect(queuedBy({ trace })).toBeUndefined();
    }
    expect(queuedBy(null)).toBeUndefined();
  });

  it("a job run is a root consumer span linked to the span that queued it, and its log lines (the failure's too) carry the run's ids", async () => {
    const lines: Line[] = [];
    const logger = appLogger('otlp', lines);
    const { data, queuer } = tracer().startActiveSpan('POST /api/v1/things', (span) => {
      span.end();
      return { data: withTraceContext({ organizationId: 'org', id: 'job-1' }), queuer: span.spanContext() };
    });
    const job = fakeJob(data);
    const run = traceJobRuns('things', async () => {
      await Promise.resolve();
      logger.info('working');
      throw new Error('boom');
    });
    await expect(run(job)).rejects.toThrow('boom');
    // As Bull's 'failed' listener (QueueFailureLog) runs: outside the run's context.
    inRunContextOf(job, () => logger.warn('Job failed'));

    const spans = exporter.getFinishedSpans();
    const consumer = spans.find((s) => s.name === 'process things')!;
    expect(consumer.parentSpanContext).toBeUndefined();
    expect(consumer.spanContext().traceId).not.toBe(queuer.traceId);
    expect(consumer.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([[queuer.traceId, queuer.spanId]]);
    expect(consumer.status.message).toBe('Error');
    const { traceId, spanId } = consumer.spanContext();
    expect(lines.map((l) => [l.msg, l.trace_id, l.span_id])).toEqual([
      ['working', traceId, spanId],
      ['Job failed', traceId, spanId],
    ]);
  });

  it('a job queued outside any span (a schedule, an old job) runs unlinked', async () => {
    const run = traceJobRuns('things', () => Promise.resolve('done'));
    await expect(run(fakeJob({ organizationId: 'org', id: 'job-2' }))).resolves.toBe('done');
    expect(exporter.getFinishedSpans().map((s) => [s.name, s.links.length])).toEqual([['process things', 0]]);
  });
});
