import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsRegistry } from './common/metrics/metrics-registry';
import './common/metrics/app-metrics';
import './common/metrics/cache-metrics';
import './common/metrics/database-pool-metrics';
import './common/metrics/queue-metrics';
import './common/metrics/request-metrics';
import './common/metrics/work-metrics';

/**
 * The Grafana dashboard (deploy/grafana/engagement.json) and the workers' KEDA query name
 * only metrics this app registers: a renamed metric fails here, not on a blank panel in production.
 */
const DASHBOARD = join(__dirname, '..', 'deploy', 'grafana', 'engagement.json');
const WORKER_SCALER = join(__dirname, '..', 'deploy', 'base', 'worker-scaledobject.yaml');

/** PromQL words that are not metric names. */
const PROMQL_WORDS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'count',
  'rate',
  'irate',
  'increase',
  'histogram_quantile',
  'by',
  'without',
  'on',
  'ignoring',
  'and',
  'or',
  'unless',
  'clamp_min',
  'clamp_max',
  'absent',
  'le',
]);
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];

/** The metric names an expression reads: label matchers, grouping clauses, ranges and numbers removed. */
export function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  return [...new Set((bare.match(/[A-Za-z_:][A-Za-z0-9_:]*/g) ?? []).filter((word) => !PROMQL_WORDS.has(word)))];
}

function registered(): Set<string> {
  const names = new Set<string>();
  for (const metric of metricsRegistry.getMetricsAsArray()) {
    names.add(metric.name);
    if (metric.constructor.name === 'Histogram')
      for (const suffix of HISTOGRAM_SUFFIXES) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

describe('Grafana dashboard and KEDA metric names', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: { title: string; targets: { expr: string }[] }[];
  };
  const queried = dashboard.panels.flatMap((panel) =>
    panel.targets.flatMap((target) => metricNamesOf(target.expr).map((name) => ({ panel: panel.title, name }))),
  );

  it('reads metric names out of PromQL (the check below can fail)', () => {
    expect(
      metricNamesOf(
        'histogram_quantile(0.95, sum by (le, queue) (rate(engagement_job_duration_seconds_bucket{outcome="failed"}[5m])))',
      ),
    ).toEqual(['engagement_job_duration_seconds_bucket']);
    expect(metricNamesOf('sum(a_total) / max by (pod) (b)')).toEqual(['a_total', 'b']);
    expect(registered().has('engagement_not_a_metric')).toBe(false);
  });

  it('every metric a panel queries is registered by the app', () => {
    const known = registered();
    expect(queried.length).toBeGreaterThan(15);
    expect(queried.filter(({ name }) => !known.has(name))).toEqual([]);
  });

  it('every app metric appears on the dashboard', () => {
    const shown = new Set(queried.map(({ name }) => name.replace(/_(bucket|sum|count)$/, '')));
    const appMetrics = metricsRegistry
      .getMetricsAsArray()
      .map((m) => m.name)
      .filter((name) => name.startsWith('engagement_') || name.startsWith('http_'));
    expect(appMetrics.filter((name) => !shown.has(name))).toEqual([]);
  });

  it('has an error-ratio panel: 5xx (and 4xx) requests over all requests', () => {
    const panel = dashboard.panels.find((p) => /error ratio/i.test(p.title));
    expect(panel).toBeDefined();
    const ratios = panel!.targets.map((t) => t.expr.replace(/\s+/g, ' '));
    const all = 'sum(rate(http_request_duration_seconds_count[5m]))';
    expect(ratios).toContain(`sum(rate(http_request_duration_seconds_count{status=~"5.."}[5m])) / ${all}`);
    expect(ratios).toContain(`sum(rate(http_request_duration_seconds_count{status=~"4.."}[5m])) / ${all}`);
  });

  it.each([
    ['webhook attempts by outcome', 'engagement_webhook_attempts_total'],
    ['webhook attempt latency', 'engagement_webhook_attempt_duration_seconds_bucket'],
    ['webhook endpoints disabled', 'engagement_webhook_endpoints_disabled_total'],
    ['export rows', 'engagement_export_rows_total'],
    ['export bytes', 'engagement_export_bytes_total'],
    ['export duration', 'engagement_export_duration_seconds_bucket'],
    ['card renders by outcome', 'engagement_card_renders_total'],
    ['card render duration', 'engagement_card_render_duration_seconds_bucket'],
    ['cache hit ratios', 'engagement_cache_lookups_total'],
  ])('has a panel for %s (%s)', (_what, name) => {
    expect(queried.filter((q) => q.name === name).length).toBeGreaterThan(0);
  });

  it('the cache hit ratio divides hits by all lookups, per cache', () => {
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(exprs).toContain(
      'sum by (cache) (rate(engagement_cache_lookups_total{result="hit"}[5m])) / sum by (cache) (rate(engagement_cache_lookups_total[5m]))',
    );
  });

  it('no two panels overlap on the grid', () => {
    const boxes = (
      JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
        panels: { title: string; gridPos: { x: number; y: number; w: number; h: number } }[];
      }
    ).panels;
    const overlaps = (a: (typeof boxes)[0]['gridPos'], b: (typeof boxes)[0]['gridPos']) =>
      a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    const clashes = boxes.flatMap((a, i) =>
      boxes
        .slice(i + 1)
        .filter((b) => overlaps(a.gridPos, b.gridPos))
        .map((b) => `${a.title} / ${b.title}`),
    );
    expect(clashes).toEqual([]);
  });

  it("the workers' ScaledObject queries the app's waiting-jobs gauge", () => {
    const query = /query:\s*(.+)/.exec(readFileSync(WORKER_SCALER, 'utf8'))?.[1] ?? '';
    expect(metricNamesOf(query)).toEqual(['engagement_queue_waiting']);
    expect(registered().has('engagement_queue_waiting')).toBe(true);
  });
});
