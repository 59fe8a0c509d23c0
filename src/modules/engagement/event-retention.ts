import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { setTimeout as delay } from 'node:timers/promises';
import { DataSource, type EntityManager } from 'typeorm';
import { InjectPort } from '../../common/wiring/port';
import { EngagementRepository } from './engagement.repository';
import { EventFold } from './event-fold.service';
import { ROLLUP_LINKS, type RollupLinks } from './rollup-links';

/** How long a retention run folds the organization's log itself before leaving the rest to the workers. */
const DRAIN_MS = 5 * 60_000;
/** A fold held by another folder (a worker) is asked again after this. */
const BUSY_RETRY_MS = 200;
/** PostgreSQL's SQLSTATE for a lock not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';
/** Tries at the organization's fold lock before a run gives up (the next run tries again). */
const FOLD_LOCK_ATTEMPTS = 5;
/** Session ids read per page when looking for references of sessions that are gone. */
const REFERENCE_PAGE = 1000;

/**
 * Retention of the event log and of what it derives (docs/api.md §6.10): expired events deleted and
 * the organization refolded from what remains, in one transaction under its fold lock, so every
 * rollup, reference, hourly aggregate and facet equals a fold of the remaining log; empty past months
 * dropped; session references of deleted sessions removed.
 */
@Injectable()
export class EventRetention {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly engagement: EngagementRepository,
    private readonly fold: EventFold,
    @InjectPort(ROLLUP_LINKS) private readonly links: RollupLinks,
  ) {}

  /**
   * Deletes the events that happened before `cutoff`, then refolds. The log is folded first, so the
   * batches waiting fire their webhooks as usual; a refold replays without webhooks. Returns how many
   * events were deleted (0: nothing refolded).
   */
  async expireEvents(organizationId: string, cutoff: Date): Promise<number> {
    await this.drain(organizationId);
    const deleted = await this.underFoldLock(organizationId, async (tx) => {
      const count = await this.engagement.deleteEventsBefore(tx, organizationId, cutoff);
      if (count > 0) {
        await this.links.reset(tx, organizationId);
        await this.engagement.queueRefold(tx, organizationId);
      }
      return count;
    });
    if (deleted > 0) await this.drain(organizationId);
    return deleted;
  }

  /**
   * Erasure (docs/api.md §18.2): the events of these links and of these sessions lose their visitor
   * and session ids, under the fold lock, so a fold running meanwhile cannot count them again from
   * rows it read before. Rollups stay as they were. Returns how many events changed.
   */
  async forgetVisitors(organizationId: string, linkIds: string[], sessionIds: string[]): Promise<number> {
    if (linkIds.length === 0 && sessionIds.length === 0) return 0;
    return this.underFoldLock(organizationId, (tx) =>
      this.engagement.forgetVisitors(tx, organizationId, linkIds, sessionIds),
    );
  }

  /**
   * `work` in a transaction holding the organization's fold lock. A worker's fold may hold it past
   * the lock timeout on a busy organization: the attempt is then repeated, FOLD_LOCK_ATTEMPTS times.
   */
  private async underFoldLock<T>(organizationId: string, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction(async (tx) => {
          await this.engagement.awaitFoldLock(tx, organizationId);
          return work(tx);
        });
      } catch (error) {
        if (attempt >= FOLD_LOCK_ATTEMPTS || (error as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw error;
      }
    }
  }

  /**
   * Folds the organization's waiting batches until none waits (workers fold them too: a busy fold is
   * theirs), for at most DRAIN_MS; true when the log is folded.
   */
  async drain(organizationId: string): Promise<boolean> {
    const until = Date.now() + DRAIN_MS;
    while (Date.now() < until) {
      const outcome = await this.fold.foldOnce(organizationId);
      if (!outcome.busy && outcome.batches === 0) return true;
      if (outcome.busy) await delay(BUSY_RETRY_MS);
    }
    return false;
  }

  /** Deletes the references of these sessions, in the caller's transaction (the sessions' deletion). */
  forgetSessions(tx: EntityManager, organizationId: string, sessionIds: string[]): Promise<number> {
    return this.engagement.deleteSessionReferences(tx, organizationId, sessionIds);
  }

  /**
   * Deletes the references first seen before `cutoff` whose session the organization no longer holds
   * (`held` answers from the sessions' owner): a refold derives references again from the events that
   * remain, those of sessions a run deleted earlier included. Returns how many.
   */
  async forgetGoneSessions(
    organizationId: string,
    cutoff: Date,
    held: (sessionIds: string[]) => Promise<Set<string>>,
  ): Promise<number> {
    let deleted = 0;
    let after: string | null = null;
    for (;;) {
      const page = await this.engagement.sessionsReferencedBefore(organizationId, cutoff, after, REFERENCE_PAGE);
      if (page.length === 0) return deleted;
      const kept = await held(page);
      const gone = page.filter((id) => !kept.has(id));
      if (gone.length > 0)
        deleted += await this.db.transaction((tx) => this.engagement.deleteSessionReferences(tx, organizationId, gone));
      after = page[page.length - 1];
    }
  }

  /**
   * Drops the log's past months that end by `before` and hold no row; returns how many. A month whose
   * lock is not granted within the lock timeout (the drop also locks link_events) is left for the
   * next run rather than failing this one.
   */
  async dropEmptyPartitions(before: Date): Promise<number> {
    let dropped = 0;
    for (const name of await this.engagement.partitionsEndingBy(before)) {
      try {
        if (await this.engagement.dropPartitionIfEmpty(name)) dropped += 1;
      } catch (error) {
        if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw error;
      }
    }
    return dropped;
  }
}
