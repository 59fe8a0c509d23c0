import type { Client } from 'pg';
import { shareWork } from '../bench/data/shared-work';

/** The dataset build's work sharing (bench/data/shared-work.js): tasks taken by whichever connection is free. */
describe('bench shared work', () => {
  const connection = (name: string) => ({ name }) as unknown as Client;
  const nameOf = (db: Client) => (db as unknown as { name: string }).name;
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('runs every task once, each on the first connection free, in the order given', async () => {
    const ran: string[] = [];
    const task = (id: string, ticks: number) => async (db: Client) => {
      for (let i = 0; i < ticks; i += 1) await tick();
      ran.push(`${id}@${nameOf(db)}`);
    };
    await shareWork([connection('A'), connection('B')], [task('long', 5), task('x', 1), task('y', 1), task('z', 1)]);
    expect(ran).toEqual(['x@B', 'y@B', 'z@B', 'long@A']);
  });

  it('lets a connection join work under way, and runs tasks added to the list while it runs', async () => {
    const ran: string[] = [];
    const tasks = [
      async (db: Client) => {
        await tick();
        tasks.unshift(async (on: Client) => void ran.push(`added@${nameOf(on)}`));
        ran.push(`first@${nameOf(db)}`);
      },
      async (db: Client) => {
        for (let i = 0; i < 3; i += 1) await tick();
        ran.push(`second@${nameOf(db)}`);
      },
    ];
    const one = shareWork([connection('A')], tasks);
    const joining = shareWork([connection('B')], tasks);
    await Promise.all([one, joining]);
    expect(ran.sort()).toEqual(['added@A', 'first@A', 'second@B']);
    expect(tasks).toEqual([]);
  });
});
