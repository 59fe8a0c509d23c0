import { startHeartbeat } from './heartbeat';

describe('startHeartbeat', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Lets the renewals' promise callbacks run. */
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it('renews every third of the lease until stopped', async () => {
    const renew = jest.fn(() => Promise.resolve(true));
    const heartbeat = startHeartbeat(3000, renew, () => undefined);
    await jest.advanceTimersByTimeAsync(999);
    expect(renew).toHaveBeenCalledTimes(0);
    await jest.advanceTimersByTimeAsync(2001);
    expect(renew).toHaveBeenCalledTimes(3);
    heartbeat.stop();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(renew).toHaveBeenCalledTimes(3);
  });

  it('stops once a renewal finds the lease gone', async () => {
    const renew = jest.fn().mockResolvedValueOnce(true).mockResolvedValueOnce(false).mockResolvedValue(true);
    startHeartbeat(300, renew, () => undefined);
    await jest.advanceTimersByTimeAsync(1000);
    expect(renew).toHaveBeenCalledTimes(2);
  });

  it('reports a failed renewal and tries again at the next beat', async () => {
    const failed = jest.fn();
    const renew = jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(true);
    const heartbeat = startHeartbeat(300, renew, failed);
    await jest.advanceTimersByTimeAsync(200);
    expect(failed).toHaveBeenCalledWith(expect.objectContaining({ message: 'down' }));
    expect(renew).toHaveBeenCalledTimes(2);
    heartbeat.stop();
  });

  it('does not start a renewal while the previous one is still running', async () => {
    let finish: (held: boolean) => void = () => undefined;
    const renew = jest.fn(() => new Promise<boolean>((resolve) => (finish = resolve)));
    const heartbeat = startHeartbeat(300, renew, () => undefined);
    await jest.advanceTimersByTimeAsync(500);
    expect(renew).toHaveBeenCalledTimes(1);
    finish(true);
    await settle();
    await jest.advanceTimersByTimeAsync(100);
    expect(renew).toHaveBeenCalledTimes(2);
    heartbeat.stop();
  });
});
