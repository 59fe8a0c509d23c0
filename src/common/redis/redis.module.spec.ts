import type Redis from 'ioredis';
import { failFastWhileAway } from './redis.module';

/** A connection whose pings are answered when the test says so. */
function fakeConnection() {
  const pending: (() => void)[] = [];
  const connection: { status: string; ping: jest.Mock<Promise<string>>; disconnect: jest.Mock<void, [boolean]> } = {
    status: 'ready',
    ping: jest.fn(() => new Promise<string>((resolve) => pending.push(() => resolve('PONG')))),
    disconnect: jest.fn((_reconnect: boolean) => void (connection.status = 'reconnecting')),
  };
  return { connection, answer: () => pending.splice(0).forEach((resolve) => resolve()) };
}

describe('failFastWhileAway', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('reconnects a connection whose probe goes unanswered for half a command timeout', async () => {
    const { connection } = fakeConnection();
    const stop = failFastWhileAway(connection as unknown as Redis, 1000);
    await jest.advanceTimersByTimeAsync(250 + 499);
    expect(connection.disconnect).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(2);
    expect(connection.disconnect).toHaveBeenCalledWith(true);
    stop();
  });

  it('leaves an answering connection alone, one probe at a time', async () => {
    const { connection, answer } = fakeConnection();
    const stop = failFastWhileAway(connection as unknown as Redis, 1000);
    for (let i = 0; i < 8; i++) {
      await jest.advanceTimersByTimeAsync(400);
      answer();
    }
    expect(connection.disconnect).not.toHaveBeenCalled();
    expect(connection.ping.mock.calls.length).toBe(8);
    stop();
  });

  it('sends no probe while the connection is not ready (commands fail at once then)', async () => {
    const { connection } = fakeConnection();
    connection.status = 'reconnecting';
    const stop = failFastWhileAway(connection as unknown as Redis, 1000);
    await jest.advanceTimersByTimeAsync(2000);
    expect(connection.ping).not.toHaveBeenCalled();
    stop();
  });
});
