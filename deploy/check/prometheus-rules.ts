import { stringify } from 'yaml';
import type { K8sObject } from './k8s.ts';

/** One alerting or recording rule of a PrometheusRule (prometheus-operator), as Prometheus reads it. */
export interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface RuleGroup {
  name: string;
  interval?: string;
  rules: Rule[];
}

/** The rule groups of every PrometheusRule of a rendering. */
export function ruleGroups(objects: K8sObject[]): RuleGroup[] {
  return objects
    .filter((o) => o.kind === 'PrometheusRule')
    .flatMap((o) => ((o.spec ?? {}) as { groups?: RuleGroup[] }).groups ?? []);
}

/**
 * A plain Prometheus rules file of those groups: what `promtool check rules FILE` reads (a
 * PrometheusRule's spec is the same `groups` list inside a Kubernetes object).
 */
export function rulesFile(objects: K8sObject[]): string {
  return stringify({ groups: ruleGroups(objects) });
}

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
  'delta',
  'histogram_quantile',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'clamp_min',
  'clamp_max',
  'absent',
  'le',
]);

/** The metric names an expression reads: strings, label matchers, grouping clauses, ranges and numbers removed. */
export function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b\d+(\.\d+)?(e[+-]?\d+)?\b/gi, ' ');
  return [...new Set((bare.match(/[A-Za-z_:][A-Za-z0-9_:]*/g) ?? []).filter((word) => !PROMQL_WORDS.has(word)))];
}
