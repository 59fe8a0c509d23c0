import { GroupCommit } from './group-commit';

/** A run whose calls are recorded and held until released, so a test decides what overlaps. */
function heldRuns(fail: (item: number) => boolean = () => false) {
  const calls: { key: string; items: number[]; release: () => void }[] = [];
  const run = (key: string, items: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      calls.push({
        key,
        items,
        release: () =>
          items.some(fail) ? reject(new Error(`failed ${items.join(',')}`)) : resolve(items.map((i) => i * 10)),
      });
    });
  return { calls, run };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('runs a submission at once when a slot is free, and every submission that waited meanwhile as the next group', async () => {
    const { calls, run } = heldRuns();
    const groups = new GroupCommit(run, { slots: 1, maxWeight: 100, weigh: () => 1 });
    const first = groups.submit('org', 1);
    const rest = [2, 3, 4].map((i) => groups.submit('org', i));
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1]]);
    calls[0].release();
    await expect(first).resolves.toBe(10);
    await tick();
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3, 4]]);
    calls[1].release();
    await expect(Promise.all(rest)).resolves.toEqual([20, 30, 40]);
  });

  it('takes waiting submissions up to maxWeight (always one), in submission order', async () => {
    const { calls, run } = heldRuns();
    const groups = new GroupCommit(run, { slots: 1, maxWeight: 5, weigh: (i) => i });
    const all = [1, 4, 2, 3, 9, 1].map((i) => groups.submit('org', i));
    for (let i = 0; i < 4; i++) {
      await tick();
      calls[i].release();
    }
    await tick();
    calls[4].release();
    await expect(Promise.all(all)).resolves.toEqual([10, 40, 20, 30, 90, 10]);
    expect(calls.map((c) => c.items)).toEqual([[1], [4], [2, 3], [9], [1]]);
  });

  it('runs as many groups of a key at once as it has slots, and other keys apart', async () => {
    const { calls, run } = heldRuns();
    const groups = new GroupCommit(run, { slots: 2, maxWeight: 100, weigh: () => 1 });
    const all = [groups.submit('a', 1), groups.submit('a', 2), groups.submit('a', 3), groups.submit('b', 4)];
    await tick();
    expect(calls.map((c) => [c.key, c.items])).toEqual([
      ['a', [1]],
      ['a', [2]],
      ['b', [4]],
    ]);
    for (const c of [...calls]) c.release();
    await tick();
    expect(calls.map((c) => [c.key, c.items])).toEqual([
      ['a', [1]],
      ['a', [2]],
      ['b', [4]],
      ['a', [3]],
    ]);
    calls[3].release();
    await expect(Promise.all(all)).resolves.toEqual([10, 20, 30, 40]);
  });

  it('runs a failed group again one submission at a time: only the failing one fails', async () => {
    const { calls, run } = heldRuns((i) => i === 3);
    const groups = new GroupCommit(run, { slots: 1, maxWeight: 100, weigh: () => 1 });
    const first = groups.submit('org', 1);
    const rest = [2, 3, 4].map((i) => groups.submit('org', i).catch((error: Error) => error.message));
    await tick();
    calls[0].release();
    await first;
    for (let i = 1; i <= 4; i++) {
      await tick();
      calls[i].release();
    }
    await expect(Promise.all(rest)).resolves.toEqual([20, 'failed 3', 40]);
    expect(calls.map((c) => c.items)).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('forgets a key once nothing of it runs or waits', async () => {
    const { calls, run } = heldRuns();
    const groups = new GroupCommit(run, { slots: 1, maxWeight: 100, weigh: () => 1 });
    const done = groups.submit('org', 1);
    await tick();
    calls[0].release();
    await done;
    await tick();
    expect((groups as unknown as { lanes: Map<string, unknown> }).lanes.size).toBe(0);
  });
});
