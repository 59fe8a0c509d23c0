import { parseLsn, replicaLagMs, type WalSample } from './read-routing';

describe('parseLsn', () => {
  it('reads both halves as hex', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });
});

describe('replicaLagMs', () => {
  const samples: WalSample[] = [
    { at: 1000, lsn: 100n },
    { at: 1250, lsn: 200n },
    { at: 1500, lsn: 300n },
  ];

  it('is 0 once the replica replayed the latest position', () => {
    expect(replicaLagMs(samples, 300n, 1600)).toBe(0);
    expect(replicaLagMs(samples, 350n, 1600)).toBe(0);
  });

  it('is the time since the last position the replica replayed (it holds every commit up to then)', () => {
    expect(replicaLagMs(samples, 299n, 1600)).toBe(350);
    expect(replicaLagMs(samples, 200n, 1600)).toBe(350);
    expect(replicaLagMs(samples, 150n, 1600)).toBe(600);
  });

  it('grows while the replica replays nothing, even with an idle primary', () => {
    const idle = [...samples, { at: 1750, lsn: 300n }, { at: 2000, lsn: 300n }];
    expect(replicaLagMs(idle, 250n, 2100)).toBe(850);
    expect(replicaLagMs(idle, 300n, 2100)).toBe(0);
  });

  it('is unknown behind every sample kept, or before any sample', () => {
    expect(replicaLagMs(samples, 99n, 1600)).toBeNull();
    expect(replicaLagMs([], 500n, 1600)).toBeNull();
  });
});
