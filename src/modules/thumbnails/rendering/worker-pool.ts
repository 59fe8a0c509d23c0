import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A fixed number of worker threads running one script, one task at a time each, with a hard
 * deadline per task. CPU-bound work (drawing a card) runs off the caller's event loop; a task past
 * its deadline has its thread terminated and replaced, and a thread that dies (an uncaught error,
 * its heap limit) fails only the task it held. The script answers each `{id, task}` message with
 * `{id, result}`.
 *
 * A thread inside native code (resvg) stops at the next JavaScript it runs, so a terminated thread
 * can linger until that native call returns; the bounded inputs (image headers are checked first)
 * bound that too. The task's caller gets its answer at the deadline either way.
 */
export interface WorkerPoolOptions {
  /** A script path, or a file: or data: URL. */
  script: string | URL;
  /** Passed to every thread as `workerData`. */
  workerData?: unknown;
  threads: number;
  timeoutMs: number;
  resourceLimits: ResourceLimits;
}

export type PoolOutcome<R> = { status: 'done'; result: R } | { status: 'timeout' } | { status: 'crashed' };

export class WorkerPoolClosedError extends Error {
  override readonly name = 'WorkerPoolClosedError';

  constructor() {
    super('The worker pool is closed.');
  }
}

interface Task<T, R> {
  id: number;
  payload: T;
  settle(outcome: PoolOutcome<R>): void;
  refuse(error: Error): void;
}

interface Slot<T, R> {
  worker: Worker | null;
  task: Task<T, R> | null;
  timer: NodeJS.Timeout | null;
}

export class WorkerPool<T, R> {
  private readonly slots: Slot<T, R>[];
  private readonly waiting: Task<T, R>[] = [];
  private readonly finished: (() => void)[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.threads) }, () => ({
      worker: null,
      task: null,
      timer: null,
    }));
  }

  /** Runs the task on the next free thread; rejects with WorkerPoolClosedError once the pool is closed. */
  run(payload: T): Promise<PoolOutcome<R>> {
    if (this.closed) return Promise.reject(new WorkerPoolClosedError());
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, payload, settle: resolve, refuse: reject });
      this.dispatch();
    });
  }

  /**
   * Refuses new tasks and the ones still waiting (WorkerPoolClosedError: their callers can retry
   * elsewhere), lets running ones finish (each within its deadline), then ends every thread.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0)) task.refuse(new WorkerPoolClosedError());
    if (this.slots.some((slot) => slot.task !== null))
      await new Promise<void>((resolve) => this.finished.push(resolve));
    await Promise.all(this.slots.map((slot) => this.retire(slot)));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.waiting.length === 0) return;
      if (slot.task !== null) continue;
      const task = this.waiting.shift() as Task<T, R>;
      slot.task = task;
      slot.timer = setTimeout(() => {
        void this.retire(slot);
        this.finish(slot, { status: 'timeout' });
      }, this.options.timeoutMs);
      try {
        (slot.worker ?? this.spawn(slot)).postMessage({ id: task.id, task: task.payload });
      } catch {
        void this.retire(slot);
        this.finish(slot, { status: 'crashed' });
      }
    }
  }

  private spawn(slot: Slot<T, R>): Worker {
    const worker = new Worker(this.options.script, {
      workerData: this.options.workerData,
      resourceLimits: this.options.resourceLimits,
    });
    // Idle threads never keep the process alive; a running task holds its deadline timer.
    worker.unref();
    worker.on('message', (message: { id: number; result: R }) => {
      if (slot.worker === worker && slot.task?.id === message.id)
        this.finish(slot, { status: 'done', result: message.result });
    });
    // An uncaught error or a heap over its limit: the thread is gone, and with it the task it held.
    worker.on('error', () => this.lose(slot, worker));
    worker.on('exit', () => this.lose(slot, worker));
    slot.worker = worker;
    return worker;
  }

  private lose(slot: Slot<T, R>, worker: Worker): void {
    if (slot.worker !== worker) return;
    slot.worker = null;
    this.finish(slot, { status: 'crashed' });
  }

  private finish(slot: Slot<T, R>, outcome: PoolOutcome<R>): void {
    const task = slot.task;
    if (task === null) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.task = null;
    slot.timer = null;
    task.settle(outcome);
    if (this.closed) {
      if (this.slots.every((s) => s.task === null)) for (const resolve of this.finished.splice(0)) resolve();
      return;
    }
    this.dispatch();
  }

  /** Detaches the slot's thread at once (the next task starts a new one) and ends it. */
  private async retire(slot: Slot<T, R>): Promise<void> {
    const worker = slot.worker;
    slot.worker = null;
    if (worker) await worker.terminate();
  }
}
