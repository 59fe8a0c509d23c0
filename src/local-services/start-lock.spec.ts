import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withStartLock } from './start-lock';

describe('withStartLock', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'start-lock-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('runs one holder at a time', async () => {
    const events: string[] = [];
    const work = (name: string) => async () => {
      events.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      events.push(`${name} out`);
    };
    await Promise.all([withStartLock(dir, 5000, work('a')), withStartLock(dir, 5000, work('b'))]);
    // Either may go first; the other never enters before the first left.
    const first = events[0].split(' ')[0];
    const second = first === 'a' ? 'b' : 'a';
    expect(events).toEqual([`${first} in`, `${first} out`, `${second} in`, `${second} out`]);
  });

  it('releases the lock when the work fails', async () => {
    await expect(withStartLock(dir, 5000, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(withStartLock(dir, 1000, async () => 'next')).resolves.toBe('next');
  });

  it('takes over a lock whose holder died', async () => {
    await mkdir(join(dir, '.start.lock'));
    // No process has this id (pid_max is below 2^22).
    await writeFile(join(dir, '.start.lock', 'pid'), String(2 ** 22 + 7));
    await expect(withStartLock(dir, 1000, async () => 'taken')).resolves.toBe('taken');
  });

  it('waits for a live holder and gives up at the deadline', async () => {
    await mkdir(join(dir, '.start.lock'));
    await writeFile(join(dir, '.start.lock', 'pid'), String(process.pid));
    await expect(withStartLock(dir, 300, async () => 'never')).rejects.toThrow(`is held by process ${process.pid}`);
  });
});
