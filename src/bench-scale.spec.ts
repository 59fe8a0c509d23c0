import { fitOf, median, project, scaleReport } from '../bench/run/scale';

/** The scale step of the benchmark (bench/run/scale.js): fits, projection, growth checks. */
describe('bench scale report', () => {
  it('fits a straight line exactly and projects it', () => {
    const points = [
      { x: 1, y: 10 },
      { x: 2, y: 12 },
      { x: 3, y: 14 },
    ];
    expect(fitOf(points, 'linear')).toEqual({ kind: 'linear', a: 8, b: 2, sse: 0 });
    expect(project(points, 10)).toEqual({ fit: expect.objectContaining({ kind: 'linear' }), value: 28 });
  });

  it('keeps the logarithmic fit for a read that grows with log N', () => {
    const points = [1, 2, 3].map((x) => ({ x, y: 5 + 3 * Math.log(x) }));
    const { fit: chosen, value } = project(points, 10);
    expect(chosen.kind).toBe('log');
    expect(value).toBeCloseTo(5 + 3 * Math.log(10), 1);
  });

  it('refuses to project from one scale', () => {
    expect(() => project([{ x: 1, y: 3 }], 10)).toThrow('at least two scales');
  });

  it('checks each read at 3 M against 1 M by its key, and projects 10 M', () => {
    const run = (scale: number, scenarios: { name: string; key?: string; p50_ms: number | null }[]) => ({
      scale,
      scenarios: scenarios.map((s) => ({ baseline_rps: 100, ...s })),
    });
    const rows = scaleReport([
      run(3, [
        { name: 'session detail', p50_ms: 6 },
        { name: 'sessions at offset 1,000,000', key: 'offset', p50_ms: 30 },
      ]),
      run(1, [
        { name: 'session detail', p50_ms: 5 },
        { name: 'sessions at offset 999,950', key: 'offset', p50_ms: 20 },
        { name: 'event ingestion', p50_ms: 400, baseline_rps: null } as never,
      ]),
      run(2, [
        { name: 'session detail', p50_ms: 5.5 },
        { name: 'sessions at offset 1,000,000', key: 'offset', p50_ms: 25 },
      ]),
    ]);
    expect(rows).toEqual([
      {
        name: 'session detail',
        p50_ms: { 1: 5, 2: 5.5, 3: 6 },
        growth: 1.2,
        met: true,
        projected_p50_ms: 9.5,
        fit: 'linear',
      },
      { name: 'offset', p50_ms: { 1: 20, 2: 25, 3: 30 }, growth: 1.5, met: false, projected_p50_ms: 65, fit: 'linear' },
    ]);
  });

  it('a read missing at a scale misses', () => {
    const rows = scaleReport([
      { scale: 1, scenarios: [{ name: 'account', p50_ms: 4, baseline_rps: 1 }] },
      { scale: 3, scenarios: [] },
    ]);
    expect(rows).toEqual([
      { name: 'account', p50_ms: { 1: 4, 3: null }, growth: null, met: false, projected_p50_ms: null, fit: null },
    ]);
  });

  it('takes the median of several rounds of one scale, whatever their order', () => {
    expect(median([])).toBeNull();
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 30, 20])).toBe(25);
    const round = (scale: number, p50: number | null) => ({
      scale,
      scenarios: [{ name: 'sessions at the deepest offset', p50_ms: p50, baseline_rps: 100 }],
    });
    // One slow 1 M round and one slow 3 M round: each alone would read 0.9 or 1.5.
    const rows = scaleReport([
      round(1, 30),
      round(3, 36),
      round(3, 50),
      round(1, 40),
      round(1, 31),
      round(3, 35),
      round(3, null),
    ]);
    expect(rows).toEqual([
      {
        name: 'sessions at the deepest offset',
        p50_ms: { 1: 31, 3: 36 },
        growth: 1.16,
        met: true,
        projected_p50_ms: 53.5,
        fit: 'linear',
      },
    ]);
  });
});
