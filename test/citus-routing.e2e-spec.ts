import { join } from 'node:path';
import { plansOf, routingOf } from './support/citus-routing';
import { collectQueries } from './support/sql-snapshot';

/** One auto_explain entry as PostgreSQL writes it to its log: the line, then the JSON plan, each line after a tab. */
const logged = (text: string, plan: unknown) =>
  [
    '2026-11-29 21:00:00.000 UTC [1] LOG:  duration: 0.321 ms  plan:',
    ...JSON.stringify({ 'Query Text': text, Plan: plan }, null, 2)
      .split('\n')
      .map((line) => `\t${line}`),
  ].join('\n');

const citusScan = (tasks: number) => ({
  'Node Type': 'Custom Scan',
  'Custom Plan Provider': 'Citus Adaptive',
  'Distributed Query': { Job: { 'Task Count': tasks, 'Tasks Shown': 'All', Tasks: [] } },
});

/**
 * The routing report of a Citus run (docs/scaling.md, "What routes to one shard") reads the plans the
 * coordinator logged and names each after the service's statement; a fan-out it cannot see would
 * make the report say all is well.
 */
describe('the Citus routing report', () => {
  const snapshot = collectQueries(join(__dirname, '..'));
  // A statement of the service as PostgreSQL receives it: one written without interpolations.
  const [file, statement] = snapshot
    .flatMap((file) => file.queries.map((query) => [file, query] as const))
    .find(([, query]) => !query.interpolated && query.sql.includes('organization_id = $1') && query.sql.length > 80)!;
  const detail = statement.sql;

  it('names a logged statement after the snapshot entry it is an instance of, with its most tasks', () => {
    const log = [
      'some other line',
      logged(detail, citusScan(1)),
      logged(detail.replace(/\s+/g, '  '), citusScan(1)),
      logged('SELECT count(*) FROM sessions', { 'Node Type': 'Aggregate', Plans: [citusScan(32)] }),
    ].join('\n');

    const routing = routingOf(plansOf(log), snapshot);

    expect(routing).toEqual([
      expect.objectContaining({ statement: null, text: 'SELECT count(*) FROM sessions', calls: 1, mostTasks: 32 }),
      expect.objectContaining({
        statement: `${file.target}: -- ${statement.name}`,
        calls: 2,
        mostTasks: 1,
      }),
    ]);
  });

  it('keeps how Citus ran an INSERT … SELECT, and skips plans without a text and text-format plans', () => {
    const log = [
      logged('INSERT INTO x SELECT $1, r.* FROM jsonb_to_recordset($2::jsonb) AS r(id uuid)', {
        'Node Type': 'Custom Scan',
        'INSERT/SELECT method': 'pull to coordinator',
      }),
      logged('', citusScan(32)),
      '2026-11-29 21:00:00.000 UTC [1] LOG:  duration: 0.1 ms  plan:\n\tQuery Text: SELECT 1\n\tResult',
    ].join('\n');

    const routing = routingOf(plansOf(log), snapshot);

    expect(routing).toEqual([expect.objectContaining({ insertSelect: ['pull to coordinator'], mostTasks: 0 })]);
  });

  it("counts Citus's distributed subplans, not PostgreSQL's correlated subplans or pruned partitions", () => {
    const onTheShard = {
      ...citusScan(1),
      Plans: [
        { 'Node Type': 'Aggregate', 'Subplan Name': 'SubPlan 1' },
        { 'Node Type': 'Append', 'Subplans Removed': 12 },
      ],
    };
    const inSteps = {
      'Node Type': 'Custom Scan',
      'Distributed Query': { Subplans: [{ PlannedStmt: [citusScan(1)] }, { PlannedStmt: [citusScan(1)] }], Job: {} },
    };
    const log = [logged('SELECT 1 FROM sessions', onTheShard), logged('SELECT 2 FROM sessions', inSteps)].join('\n');

    const routing = routingOf(plansOf(log), snapshot);

    expect(routing.map(({ text, subplans }) => ({ text, subplans }))).toEqual([
      { text: 'SELECT 1 FROM sessions', subplans: 0 },
      { text: 'SELECT 2 FROM sessions', subplans: 2 },
    ]);
  });
});
