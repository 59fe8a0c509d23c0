/**
 * Which statements route to one shard on Citus (issue 35 point 1), read from the plans the
 * coordinator logged: with the e2e suite's Citus mode and TEST_CITUS_EXPLAIN=1, every scratch
 * database loads auto_explain (JSON plans, every statement), so a run of the suite leaves the plan
 * of every statement the service ran in the coordinator's log. Each plan is attributed to the
 * statement of the SQL snapshot (src/queries) whose text it is, and summarised by the most tasks a
 * Citus scan of it had: 1 is one shard (or one reference-table placement), more is a fan-out.
 */
import { tokenize } from './citus-statements.ts';
import type { SnapshotFile } from './sql-snapshot.ts';

export interface LoggedPlan {
  text: string;
  /** The most tasks of any Citus scan in the plan; 0 when no distributed table was read. */
  tasks: number;
  /** The plan ran subplans first (a CTE or subquery Citus planned on its own). */
  subplans: number;
  /** How Citus ran an INSERT … SELECT: `pull to coordinator` (the rows, all of the tenant, then routed by key), `repartition`, … */
  insertSelect: string[];
}

const PLAN_START = /LOG: {2}duration: [\d.]+ ms {2}plan:$/;

/** The auto_explain JSON plans of a PostgreSQL server log (continuation lines start with a tab). */
export function plansOf(log: string): LoggedPlan[] {
  const plans: LoggedPlan[] = [];
  const lines = log.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!PLAN_START.test(lines[i])) continue;
    const body: string[] = [];
    while (i + 1 < lines.length && lines[i + 1].startsWith('\t')) body.push(lines[++i].slice(1));
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.join('\n'));
    } catch {
      continue; // a text-format plan, or a log line cut short
    }
    const entry = parsed as { 'Query Text'?: string; Plan?: unknown };
    if (typeof entry['Query Text'] !== 'string') continue;
    plans.push({
      text: entry['Query Text'],
      tasks: mostTasks(entry.Plan),
      subplans: distributedSubplans(entry.Plan),
      insertSelect: valuesOf(entry.Plan, 'INSERT/SELECT method'),
    });
  }
  return plans;
}

function mostTasks(node: unknown): number {
  if (Array.isArray(node)) return Math.max(0, ...node.map(mostTasks));
  if (node === null || typeof node !== 'object') return 0;
  let most = 0;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'Task Count' && typeof value === 'number') most = Math.max(most, value);
    else most = Math.max(most, mostTasks(value));
  }
  return most;
}

/**
 * Citus's distributed subplans: the entries of a "Subplans" list (not PostgreSQL's own correlated
 * "Subplan Name" nodes, which run on the shard, nor partition pruning's "Subplans Removed").
 */
function distributedSubplans(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((sum: number, item) => sum + distributedSubplans(item), 0);
  if (node === null || typeof node !== 'object') return 0;
  return Object.entries(node).reduce(
    (sum, [key, value]) =>
      sum + (key === 'Subplans' && Array.isArray(value) ? value.length : 0) + distributedSubplans(value),
    0,
  );
}

function valuesOf(node: unknown, wanted: string): string[] {
  if (Array.isArray(node)) return node.flatMap((item) => valuesOf(item, wanted));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === wanted && typeof value === 'string' ? [value] : valuesOf(value, wanted),
  );
}

const squeeze = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/**
 * A snapshot statement's text as a pattern: its tokens with any whitespace between, `${...}`
 * matching anything; with how many characters of it are literal (a text that is all interpolation
 * matches anything and names nothing).
 */
function patternOf(sql: string): { pattern: RegExp; literal: number } {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const parts = tokenize(sql).map((token) => {
    if (token.kind === 'interpolation') return '[\\s\\S]*?';
    // tokenize drops a quoted identifier's quotes.
    if (token.kind === 'word') return `"?${escape(token.text)}"?`;
    return escape(token.text);
  });
  const literal = tokenize(sql)
    .filter((token) => token.kind !== 'interpolation')
    .reduce((sum, token) => sum + token.text.length, 0);
  return { pattern: new RegExp(`^${parts.join('\\s*')}$`), literal };
}

export interface StatementRouting {
  /** `src/queries/<file>.sql: -- <name>`, or null for a statement the service does not run (a spec's own, TypeORM's). */
  statement: string | null;
  text: string;
  calls: number;
  mostTasks: number;
  subplans: number;
  insertSelect: string[];
}

/** The plans grouped by statement, the service's statements named after the snapshot. */
export function routingOf(plans: LoggedPlan[], snapshot: SnapshotFile[]): StatementRouting[] {
  // The most specific first: a text that two statements' patterns match is the longer one's.
  const patterns = snapshot
    .flatMap((file) =>
      file.queries.map((query) => ({
        label: `${file.target}: -- ${query.name}`,
        ...patternOf(query.inlined ?? query.partial ?? query.sql),
      })),
    )
    .filter(({ literal }) => literal >= 20)
    .sort((a, b) => b.literal - a.literal);
  const byText = new Map<string, StatementRouting>();
  for (const plan of plans) {
    if (plan.text.trim() === '') continue; // a statement Citus ran for itself
    const text = squeeze(plan.text);
    let routing = byText.get(text);
    if (routing === undefined) {
      const label = patterns.find(({ pattern }) => pattern.test(text))?.label ?? null;
      routing = { statement: label, text, calls: 0, mostTasks: 0, subplans: 0, insertSelect: [] };
      byText.set(text, routing);
    }
    routing.calls += 1;
    routing.mostTasks = Math.max(routing.mostTasks, plan.tasks);
    routing.subplans = Math.max(routing.subplans, plan.subplans);
    routing.insertSelect = [...new Set([...routing.insertSelect, ...plan.insertSelect])];
  }
  // One row per snapshot statement (its texts merged: interpolations vary), then the others by text.
  const merged = new Map<string, StatementRouting>();
  for (const routing of byText.values()) {
    const key = routing.statement ?? `text: ${routing.text}`;
    const seen = merged.get(key);
    if (seen === undefined) merged.set(key, { ...routing });
    else {
      seen.calls += routing.calls;
      seen.mostTasks = Math.max(seen.mostTasks, routing.mostTasks);
      seen.subplans = Math.max(seen.subplans, routing.subplans);
      seen.insertSelect = [...new Set([...seen.insertSelect, ...routing.insertSelect])];
    }
  }
  return [...merged.values()].sort(
    (a, b) => b.mostTasks - a.mostTasks || (a.statement ?? '~').localeCompare(b.statement ?? '~'),
  );
}
