/** What a group run is given: every submission's item, in submission order; it answers each, in order. */
export type GroupRun<T, R> = (key: string, items: T[]) => Promise<R[]>;

export interface GroupCommitOptions<T> {
  /** Groups of one key that may run at once. */
  slots: number;
  /** A group takes waiting submissions until their weight reaches this (it always takes one). */
  maxWeight: number;
  weigh: (item: T) => number;
}

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

interface Lane<T, R> {
  waiting: Waiting<T, R>[];
  running: number;
}

/**
 * Group commit: submissions under one key run together. A submission starts a group at once when a
 * slot of its key is free; otherwise it waits, and the next group takes every submission that waited
 * (up to maxWeight), so the cost a group pays once (a transaction, a commit, rows that several
 * submissions touch) is shared by however many arrived meanwhile. A group that fails runs again one
 * submission at a time, so a submission fails only for its own reasons.
 */
export class GroupCommit<T, R> {
  private readonly lanes = new Map<string, Lane<T, R>>();

  constructor(
    private readonly run: GroupRun<T, R>,
    private readonly options: GroupCommitOptions<T>,
  ) {}

  submit(key: string, item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let lane = this.lanes.get(key);
      if (!lane) {
        lane = { waiting: [], running: 0 };
        this.lanes.set(key, lane);
      }
      lane.waiting.push({ item, resolve, reject });
      this.start(key, lane);
    });
  }

  private start(key: string, lane: Lane<T, R>): void {
    while (lane.running < this.options.slots && lane.waiting.length > 0) {
      const group = this.take(lane);
      lane.running++;
      void this.runGroup(key, group).finally(() => {
        lane.running--;
        if (lane.running === 0 && lane.waiting.length === 0) this.lanes.delete(key);
        else this.start(key, lane);
      });
    }
  }

  private take(lane: Lane<T, R>): Waiting<T, R>[] {
    let weight = this.options.weigh(lane.waiting[0].item);
    let count = 1;
    while (
      count < lane.waiting.length &&
      weight + this.options.weigh(lane.waiting[count].item) <= this.options.maxWeight
    ) {
      weight += this.options.weigh(lane.waiting[count].item);
      count++;
    }
    return lane.waiting.splice(0, count);
  }

  private async runGroup(key: string, group: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.run(
        key,
        group.map((w) => w.item),
      );
      group.forEach((w, i) => w.resolve(results[i]));
    } catch (error) {
      if (group.length === 1) {
        group[0].reject(error);
        return;
      }
      for (const w of group) {
        try {
          const [result] = await this.run(key, [w.item]);
          w.resolve(result);
        } catch (alone) {
          w.reject(alone);
        }
      }
    }
  }
}
