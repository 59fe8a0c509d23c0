import { WorkerPool, WorkerPoolClosedError, type WorkerPoolOptions } from './worker-pool';

/** A worker script as a data: URL (an ES module run by the thread). */
const script = (code: string) =>
  new URL(
    `data:text/javascript,${encodeURIComponent(`import { parentPort, workerData } from 'node:worker_threads';\n${code}`)}`,
  );

const ECHO = script(`parentPort.on('message', ({ id, task }) => parentPort.postMessage({ id, result: task * 2 }));`);
// Counts its started tasks in slot 1 and spins, counting in slot 0, until it is terminated.
const SPIN = script(`
  const counters = new Int32Array(workerData);
  parentPort.on('message', () => { Atomics.add(counters, 1, 1); for (;;) Atomics.add(counters, 0, 1); });
`);
// Spins on a task of -1, answers others.
const SPIN_ON_NEGATIVE = script(
  `parentPort.on('message', ({ id, task }) => { if (task < 0) for (;;); parentPort.postMessage({ id, result: task }); });`,
);
const LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 };

const pools: WorkerPool<number, number>[] = [];
function pool(options: Partial<WorkerPoolOptions>): WorkerPool<number, number> {
  const created = new WorkerPool<number, number>({
    script: ECHO,
    threads: 1,
    timeoutMs: 5000,
    resourceLimits: LIMITS,
    ...options,
  });
  pools.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** Resolves once `check` holds, polling on the event loop (which the pool must leave free). */
async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('WorkerPool', () => {
  it('runs tasks on its threads and answers each with its own result', async () => {
    const echo = pool({ threads: 2 });
    await expect(Promise.all([1, 2, 3, 4, 5].map((n) => echo.run(n)))).resolves.toEqual(
      [2, 4, 6, 8, 10].map((result) => ({ status: 'done', result })),
    );
  });

  it('keeps the event loop free while a task spins, then terminates the thread at the deadline', async () => {
    const counters = new Int32Array(new SharedArrayBuffer(8));
    const spinning = pool({ script: SPIN, workerData: counters.buffer, timeoutMs: 800 });
    const started = Date.now();
    const outcome = spinning.run(1);

    await until(() => Atomics.load(counters, 1) === 1);
    // Timers on this thread fire on time while the task runs on its own thread.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await until(() => ticks >= 10, 700);
    clearInterval(timer);
    expect(Atomics.load(counters, 0)).toBeGreaterThan(0);

    await expect(outcome).resolves.toEqual({ status: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
    // Terminated: the spinning loop stops counting.
    let last = -1;
    await until(() => {
      const now = Atomics.load(counters, 0);
      const still = now === last;
      last = now;
      return still;
    });
  });

  it('replaces a terminated thread: the next task runs on a new one', async () => {
    // The deadline includes starting the new thread, which can take a while on a loaded machine.
    const mixed = pool({ script: SPIN_ON_NEGATIVE, timeoutMs: 3000 });
    const [stuck, next] = [mixed.run(-1), mixed.run(7)];
    await expect(stuck).resolves.toEqual({ status: 'timeout' });
    await expect(next).resolves.toEqual({ status: 'done', result: 7 });
  });

  it('fails only the task whose thread died (uncaught error, exit, heap limit) and goes on with new threads', async () => {
    const dying = pool({
      script: script(`
        parentPort.on('message', ({ id, task }) => {
          if (task === 1) throw new Error('boom');
          if (task === 2) process.exit(3);
          if (task === 3) { const hoard = []; for (;;) hoard.push(new Array(1e5).fill(task)); }
          parentPort.postMessage({ id, result: task });
        });`),
      timeoutMs: 10_000,
    });
    await expect(dying.run(1)).resolves.toEqual({ status: 'crashed' });
    await expect(dying.run(2)).resolves.toEqual({ status: 'crashed' });
    await expect(dying.run(3)).resolves.toEqual({ status: 'crashed' });
    await expect(dying.run(4)).resolves.toEqual({ status: 'done', result: 4 });
  });

  it('a script that cannot be loaded fails its tasks instead of hanging them', async () => {
    const missing = pool({ script: '/nonexistent/render-worker.js' });
    await expect(missing.run(1)).resolves.toEqual({ status: 'crashed' });
  });

  it('close lets the running task finish, refuses the waiting and later ones', async () => {
    const slow = pool({
      script: script(
        `parentPort.on('message', ({ id, task }) => { const end = Date.now() + 200; while (Date.now() < end); parentPort.postMessage({ id, result: task }); });`,
      ),
    });
    const running = slow.run(1);
    const waiting = slow.run(2);
    const closed = slow.close();
    await expect(waiting).rejects.toBeInstanceOf(WorkerPoolClosedError);
    await expect(running).resolves.toEqual({ status: 'done', result: 1 });
    await closed;
    await expect(slow.run(3)).rejects.toBeInstanceOf(WorkerPoolClosedError);
  });
});
