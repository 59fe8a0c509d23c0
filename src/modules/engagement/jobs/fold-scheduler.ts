import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { setFoldBacklog } from '../../../common/metrics/app-metrics';
import { EventFold } from '../event-fold.service';

/** How often an idle folder looks for appended batches: an event is folded well within a second. */
const IDLE_POLL_MS = 100;
/** After a failure (the database away): the next look, so a folder heals without a restart. */
const RETRY_MS = 1000;
/** How often a folder makes sure the log's coming months have partitions. */
const PARTITIONS_EVERY_MS = 3_600_000;
/** Organizations folded at once by one process (the machine's cores). */
const PARALLEL_ORGANIZATIONS = 2;

/**
 * Every worker process folds the event log (docs/api.md §6.4): it looks for organizations with
 * appended batches and folds each until none waits. Folders in several processes share the work; an
 * organization's fold lock makes one of them fold it at a time, and a fold killed midway leaves its
 * batches to the next look.
 */
@Injectable()
export class FoldScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EventFold');
  private stopped = false;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private partitionsDueAt = 0;

  constructor(private readonly fold: EventFold) {}

  onApplicationBootstrap(): void {
    this.running = this.loop();
  }

  /** Before the connections close: no new fold, and the one running commits or rolls back. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let pause = IDLE_POLL_MS;
      try {
        if (await this.foldWaiting()) pause = 0;
      } catch (err) {
        this.logger.warn({ err }, 'Folding the event log failed; trying again');
        pause = RETRY_MS;
      }
      if (pause > 0 && !this.stopped) await this.sleep(pause);
    }
  }

  /** One look: every waiting organization folded once; true when any batch was folded. */
  private async foldWaiting(): Promise<boolean> {
    if (Date.now() >= this.partitionsDueAt) {
      const created = await this.fold.ensurePartitions();
      if (created.length > 0) this.logger.log({ partitions: created }, 'Created event log partitions');
      this.partitionsDueAt = Date.now() + PARTITIONS_EVERY_MS;
    }
    const waiting = await this.fold.waiting();
    setFoldBacklog(waiting.length === 0 ? 0 : Date.now() - waiting[0].oldest.getTime());
    let folded = false;
    for (let i = 0; i < waiting.length && !this.stopped; i += PARALLEL_ORGANIZATIONS) {
      const outcomes = await Promise.all(
        waiting.slice(i, i + PARALLEL_ORGANIZATIONS).map(({ organizationId }) => this.fold.foldOnce(organizationId)),
      );
      folded ||= outcomes.some((outcome) => !outcome.busy && outcome.batches > 0);
    }
    return folded;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
      this.timer.unref();
    });
  }
}
