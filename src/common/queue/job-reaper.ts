import { Injectable, Logger, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bull';
import { AppConfigService } from '../../config/app-config';
import type { Row, TableName } from '../database/rows';
import { defineKeyedPort, InjectPort, type Keyed } from '../wiring/port';
import { JobLeases, JobLeasesModule, type LeaseTerms } from './job-leases';
import { requeue } from './job-options';

/** A job row the reaper took back: the queue payload is built from it. */
export interface LapsedJob {
  organizationId: string;
  id: string;
}

/** The tables whose rows have what reclaimLapsedRows reads and writes. */
export type LeasedTable = {
  [T in TableName]: Row<T> extends {
    organization_id: string;
    id: string;
    status: string;
    lease_owner: string | null;
    lease_until: Date | null;
    created_at: Date;
  }
    ? T
    : never;
}[TableName];

/**
 * Claims rows across organizations in two steps, as Citus runs them on a table distributed by
 * organization_id (it cannot lock rows of several shards in one statement): `candidates`, read
 * without a lock (a read may span shards), then `claim` once per organization with that
 * organization's candidate ids. Each claim locks its rows FOR UPDATE SKIP LOCKED and checks again
 * that they are still claimable while it pushes their lease forward, so sweepers running at once
 * never take a row twice in a term and never wait on a row its work holds.
 */
export async function claimPerOrganization(
  candidates: LapsedJob[],
  claim: (organizationId: string, ids: string[]) => Promise<LapsedJob[]>,
): Promise<LapsedJob[]> {
  const byOrganization = new Map<string, string[]>();
  for (const row of candidates) {
    const ids = byOrganization.get(row.organizationId) ?? [];
    byOrganization.set(row.organizationId, [...ids, row.id]);
  }
  const claimed: LapsedJob[] = [];
  for (const [organizationId, ids] of byOrganization) claimed.push(...(await claim(organizationId, ids)));
  return claimed;
}

/**
 * `reclaimLapsed` for a table of job rows with `status`, `lease_owner`, `lease_until` and
 * `created_at`: the owning module passes its own table and its unfinished states. The states are
 * written into the statements (code constants, never input) so that they match the table's partial
 * index of unfinished rows.
 */
export async function reclaimLapsedRows(
  db: { query(sql: string, params: unknown[]): Promise<unknown> },
  table: LeasedTable,
  unfinished: readonly string[],
  lease: LeaseTerms,
  limit: number,
): Promise<LapsedJob[]> {
  const states = unfinished.map((state) => `'${state}'`).join(', ');
  const lapsed = `status IN (${states}) AND coalesce(lease_until, created_at + $1 * interval '1 millisecond') < now()`;
  const candidates = (await db.query(
    `SELECT organization_id AS "organizationId", id FROM ${table} WHERE ${lapsed} LIMIT $2`,
    [lease.leaseMs, limit],
  )) as LapsedJob[];
  return claimPerOrganization(candidates, async (organizationId, ids) => {
    const [rows] = (await db.query(
      `UPDATE ${table} t SET lease_owner = NULL, lease_until = now() + $1 * interval '1 millisecond'
         FROM (SELECT id FROM ${table} WHERE organization_id = $2 AND id = ANY($3) AND ${lapsed} FOR UPDATE SKIP LOCKED) lapsed
        WHERE t.organization_id = $2 AND t.id = lapsed.id
        RETURNING t.organization_id AS "organizationId", t.id`,
      [lease.leaseMs, organizationId, ids],
    )) as [LapsedJob[], number];
    return rows;
  });
}

/**
 * A kind of job rows whose work runs on a Bull queue under the row's id: the processor of that queue
 * implements it (REAPABLE_JOBS), so the reaper of a worker sweeps the kinds that worker runs.
 */
export interface ReapableJobs<T = unknown> {
  /** Names the kind in logs. */
  kind: string;
  queue: Queue<T>;
  /** The Bull job name its processor handles. */
  jobName: string;
  /**
   * Takes at most `limit` rows that are not finished and that nobody works on: their lease lapsed,
   * or they were recorded a lease ago and never leased (the process died between commit and
   * enqueue). The sweep spans organizations (claimPerOrganization): each organization's rows are
   * taken by one atomic statement that skips rows locked by their work (FOR UPDATE SKIP LOCKED) and
   * pushes the lease of those it takes one term forward, so sweepers running at once never take a
   * row twice in a term. Each row comes back with its organization.
   */
  reclaimLapsed(terms: LeaseTerms, limit: number): Promise<LapsedJob[]>;
  payload(job: LapsedJob): T;
  /** How often this kind is swept; JOB_REAPER_INTERVAL_MS unless the kind's work comes due on a schedule. */
  sweepIntervalMs?: number;
  /**
   * True when rows come back in normal operation (a retry that came due), not only after a crash:
   * those hand-backs are logged at debug instead of warn.
   */
  routine?: boolean;
}

/** The kinds of job rows the reaper sweeps, one provider per kind. */
export const REAPABLE_JOBS = defineKeyedPort<ReapableJobs>('reapable jobs', { keysOf: (jobs) => jobs.kind });

/** Rows taken per statement, and statements per kind and sweep (a backlog drains over sweeps). */
const BATCH = 100;
const MAX_BATCHES = 10;

/**
 * The backstop of crash recovery, in every worker process: every JOB_REAPER_INTERVAL_MS it takes
 * the job rows whose lease lapsed and hands them back to their queue. Bull recovers a job whose
 * worker died once (stalled, moved back to wait); a job stalled again is failed by Bull (see
 * MAX_STALLED_COUNT), and a job recorded but never queued is unknown to Bull: both come back here.
 * A Bull job still waiting, delayed or active is left alone (its id is the row's id), so the reaper
 * never doubles live work.
 */
@Injectable()
export class JobReaper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('JobReaper');
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sweeping = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(
    private readonly leases: JobLeases,
    private readonly config: AppConfigService,
    @InjectPort(REAPABLE_JOBS) private readonly kinds: Keyed<string, ReapableJobs>,
  ) {}

  onApplicationBootstrap(): void {
    for (const kind of this.kinds.all()) this.schedule(kind);
  }

  /** Before the connections close: no new sweep, and the ones running finish. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(this.sweeping);
  }

  /** Each kind on a timer of its own, so a kind swept often never waits behind a slow one. */
  private schedule(kind: ReapableJobs): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const running = this.sweepKind(kind).finally(() => {
        this.sweeping.delete(running);
        if (!this.stopped) this.schedule(kind);
      });
      this.sweeping.add(running);
    }, kind.sweepIntervalMs ?? this.config.values.jobReaperIntervalMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async sweepKind(kind: ReapableJobs): Promise<number> {
    const timeoutMs = this.config.values.timeouts.redisCommandMs;
    let requeued = 0;
    try {
      for (let batch = 0; batch < MAX_BATCHES && !this.stopped; batch++) {
        const lapsed = await kind.reclaimLapsed(this.leases.terms(), BATCH);
        for (const job of lapsed) {
          // A job not handed back now is taken again once the lease just pushed forward lapses.
          const found = await requeue(kind.queue, kind.jobName, kind.payload(job), job.id, timeoutMs).catch(
            (err: unknown) => {
              this.logger.warn({ kind: kind.kind, jobId: job.id, err }, 'Could not re-queue a job whose lease lapsed');
              return 'live' as const;
            },
          );
          if (found === 'live') continue;
          requeued++;
          const log = kind.routine ? this.logger.debug.bind(this.logger) : this.logger.warn.bind(this.logger);
          log({ kind: kind.kind, jobId: job.id, queueState: found }, 'Re-queued a job whose lease lapsed');
        }
        if (lapsed.length < BATCH) break;
      }
    } catch (err) {
      this.logger.warn({ kind: kind.kind, err }, 'Sweep for lapsed job leases failed');
    }
    return requeued;
  }
}

/** Worker-side modules import it for the processors that implement ReapableJobs; one reaper per process. */
@Module({ imports: [JobLeasesModule, REAPABLE_JOBS.module], providers: [JobReaper], exports: [JobReaper] })
export class JobReaperModule {}
