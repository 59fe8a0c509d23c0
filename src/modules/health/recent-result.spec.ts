import { RecentResult } from './recent-result';

describe('RecentResult', () => {
  it('shares one computation between concurrent callers and reuses its result for the TTL', async () => {
    let release!: (value: number) => void;
    const compute = jest.fn(() => new Promise<number>((resolve) => (release = resolve)));
    const recent = new RecentResult(1000, compute);
    const both = Promise.all([recent.get(), recent.get()]);
    release(7);
    expect(await both).toEqual([7, 7]);
    expect(await recent.get()).toBe(7);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('computes again once the TTL has passed since completion', async () => {
    let n = 0;
    let now = 50_000;
    const recent = new RecentResult(
      1000,
      async () => ++n,
      () => now,
    );
    expect(await recent.get()).toBe(1);
    now += 999;
    expect(await recent.get()).toBe(1);
    now += 2;
    expect(await recent.get()).toBe(2);
  });

  it('keeps a failure for the TTL too, so a failing dependency is not hammered', async () => {
    const compute = jest.fn(async () => {
      throw new Error('down');
    });
    const recent = new RecentResult(1000, compute);
    await expect(recent.get()).rejects.toThrow('down');
    await expect(recent.get()).rejects.toThrow('down');
    expect(compute).toHaveBeenCalledTimes(1);
  });
});
