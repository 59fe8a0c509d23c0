import { compareEngines } from '../bench/run/engines';

/** The engine comparison of the benchmark (bench/run/engines.js): single PostgreSQL against Citus. */
describe('bench engine comparison', () => {
  const read = (name: string, rps: number, p50: number, p99: number) => ({ name, rps, p50_ms: p50, p99_ms: p99 });

  it('puts each read both runs measured side by side, with the other engine ÷ the base', () => {
    const rows = compareEngines(
      { scenarios: [read('session detail', 1000, 10, 20), read('account', 500, 4, 8)] },
      { scenarios: [read('session detail', 800, 12.5, 30), read('people list', 100, 50, 90)] },
    );
    expect(rows).toEqual([
      { name: 'session detail', unit: 'req/s', base: 1000, other: 800, ratio: 0.8 },
      { name: 'session detail', unit: 'p50 ms', base: 10, other: 12.5, ratio: 1.25 },
      { name: 'session detail', unit: 'p99 ms', base: 20, other: 30, ratio: 1.5 },
    ]);
  });

  it('compares the ingestion rate and the jobs both runs have, and leaves out a failed read', () => {
    const rows = compareEngines(
      {
        scenarios: [read('transcript', 0, 0, 0)],
        events: { events_per_s: 20000 },
        jobs: [
          { name: '500-link job', seconds: 4 },
          { name: 'only here', seconds: 1 },
        ],
      },
      {
        scenarios: [read('transcript', 10, 1, 2)],
        events: { events_per_s: 9000 },
        jobs: [{ name: '500-link job', seconds: 6 }],
      },
    );
    expect(rows).toEqual([
      { name: 'event ingestion', unit: 'events/s', base: 20000, other: 9000, ratio: 0.45 },
      { name: '500-link job', unit: 's', base: 4, other: 6, ratio: 1.5 },
    ]);
  });
});
