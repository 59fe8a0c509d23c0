import { Inject, Injectable, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type Redis from 'ioredis';
import { Counter, Gauge } from 'prom-client';
import { DataSource, type QueryRunner } from 'typeorm';
import { readContexts, readRouters, type ReadContext, type StatementRouter } from '../common/database/read-context';
import { isReadOnlyStatement } from '../common/database/read-statements';
import { isDependencyFailure } from '../common/errors/dependency-failure';
import { metricsRegistry } from '../common/metrics/metrics-registry';
import { REDIS } from '../common/redis/redis.module';
import { AppConfigService } from '../config/app-config';
import type { AppConfig } from '../config/environment';
import { dataSourceOptions } from './data-source-options';

const reads = new Counter({
  name: 'engagement_db_reads_total',
  help: 'Read-only statements run outside a transaction, by where they ran (replica or primary)',
  labelNames: ['target'],
  registers: [metricsRegistry],
});

const replicaLag = new Gauge({
  name: 'engagement_db_replica_lag_seconds',
  help: 'How far each replica (by its position in DATABASE_REPLICA_URLS, from 0) was behind the primary at its last check; +Inf when it did not answer',
  labelNames: ['replica'],
  registers: [metricsRegistry],
});

/** The primary's WAL position at one moment of this process. */
export interface WalSample {
  at: number;
  lsn: bigint;
}

/**
 * How old the newest data a replica surely holds is, from the primary's positions sampled over time
 * (oldest first) and the position the replica has replayed: 0 once it replayed the latest sample,
 * else the time since the last sample it has replayed (it holds every commit up to then, perhaps
 * more). Null when it is behind every sample kept: too far behind to say.
 *
 * `now() - pg_last_xact_replay_timestamp()` is not used: on an idle primary it grows without the
 * replica missing anything.
 */
export function replicaLagMs(samples: WalSample[], replayed: bigint, now: number): number | null {
  const latest = samples.at(-1);
  if (latest === undefined) return null;
  if (replayed >= latest.lsn) return 0;
  for (let i = samples.length - 2; i >= 0; i--) if (replayed >= samples[i].lsn) return now - samples[i].at;
  return null;
}

/** A pg_lsn's text (`16/B374D848`) as a number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

interface Replica {
  /** Its position in DATABASE_REPLICA_URLS: the metric label (the URL holds a password). */
  index: number;
  source: DataSource;
  /** The position it had replayed at its last check: it has at least that now. */
  replayed: bigint;
  /** Its lag at its last check (ms); null: unknown, down, or not a standby. */
  lagMs: number | null;
  checkedAt: number;
}

/**
 * Marks: after a request of an organization writes, the primary's WAL insert position (past its
 * commit), kept in Redis so that every API instance sees it. Fixed-width hex compares as the number.
 */
const MARK_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current or current < ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end`;
/** Far longer than any lag a replica may serve with: once it expires, every serving replica is past it. */
const MARK_TTL_MS = 10 * 60_000;
const markKey = (organizationId: string) => `reads:written:${organizationId}`;
const markValue = (lsn: bigint) => lsn.toString(16).padStart(16, '0');

/** SQLSTATE 40001 on a standby: a read cancelled because replay needed what it held (a recovery conflict). */
const RECOVERY_CONFLICT = '40001';

/**
 * Sends reads of authenticated GET and HEAD requests to streaming replicas (DATABASE_REPLICA_URLS),
 * without repositories knowing: it wraps the app DataSource's `query` (what repositories call outside
 * a transaction) and `transaction`, and preparedQuery asks it too. The rules (docs/scaling.md
 * "Read replicas"):
 *
 * - Only a read-only statement (read-statements.ts) outside a transaction, in a GET or HEAD request
 *   with a principal, may go to a replica. A transaction's EntityManager runs on its own
 *   QueryRunner, the primary's, untouched. Other methods (and so idempotent replays), public routes,
 *   the key lookup, workers and the CLI read the primary. Once a request wrote or read the primary,
 *   the rest of it reads the primary.
 * - Read-your-writes, across requests and instances: each write of a request records the primary's
 *   WAL insert position (past its commit) for its organization in Redis before the answer leaves.
 *   That organization's reads go to a replica only once it has replayed past that mark: known from
 *   its last check, else asked of the replica (one short query; replay only moves forward).
 * - Monotonic reads: an organization reads from one replica (chosen by its id among those serving);
 *   and a GET of an organization with a mark that read the primary moves the mark past what it read,
 *   so that its next request cannot see older data on a replica (the workers' writes carry no mark).
 * - A replica serves only while its lag, measured against the primary's positions sampled every
 *   check, plus the age of that check, stays within REPLICA_MAX_LAG_MS; a replica that fails a
 *   read is left out until its next check passes, and the read is run again on the primary.
 */
@Injectable()
export class ReadRouter implements StatementRouter, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReadRouter');
  private readonly replicas: Replica[] = [];
  private samples: WalSample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  /** The DataSource's own methods, before install() wraps them: the primary, unrouted. */
  private unrouted!: Pick<DataSource, 'query' | 'transaction'>;
  private readonly maxLagMs: number;
  private readonly checkIntervalMs: number;

  constructor(
    @InjectDataSource() private readonly primary: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfigService,
  ) {
    this.maxLagMs = config.values.replicas.maxLagMs;
    this.checkIntervalMs = Math.min(250, Math.max(10, Math.floor(this.maxLagMs / 4)));
  }

  onModuleInit(): void {
    const { replicas, databasePoolSize, timeouts } = this.config.values;
    replicas.urls.forEach((url, index) => {
      const source = new DataSource(dataSourceOptions(url, databasePoolSize, timeouts));
      this.replicas.push({ index, source, replayed: 0n, lagMs: null, checkedAt: 0 });
    });
    this.install();
    readRouters.set(this.primary, this);
    this.timer = setInterval(() => void this.checkOnce(), this.checkIntervalMs);
    this.timer.unref();
    void this.checkOnce();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
    readRouters.delete(this.primary);
    await Promise.all(this.replicas.filter((r) => r.source.isInitialized).map((r) => r.source.destroy()));
  }

  /** Runs a statement where the rules above send it; `run` executes it on the given data source. */
  async route<T>(sql: string, run: (source: DataSource) => Promise<T>): Promise<T> {
    const context = readContexts.getStore();
    if (!isReadOnlyStatement(sql)) {
      if (context) context.onPrimary = true;
      const result = await run(this.primary);
      if (context) await this.recordMark(context);
      return result;
    }
    const replica = context ? await this.replicaFor(context) : null;
    if (replica) {
      try {
        const result = await run(replica.source);
        reads.inc({ target: 'replica' });
        return result;
      } catch (error) {
        if (!isReplicaFailure(error)) throw error;
        this.leaveOut(replica, error);
      }
    }
    reads.inc({ target: 'primary' });
    if (context) context.onPrimary = true;
    const result = await run(this.primary);
    // What the primary just answered may be newer than the organization's mark (the workers' writes):
    // moved past it, so that its next read cannot go back in time on a replica.
    if (context && mayReadReplicas(context) && (await context.mark)) await this.recordMark(context);
    return result;
  }

  /** Wraps the DataSource's query and transaction: every other path (QueryRunners, managers of transactions) is the primary's. */
  private install(): void {
    const db = this.primary;
    this.unrouted = {
      query: db.query.bind(db),
      transaction: db.transaction.bind(db) as DataSource['transaction'],
    };
    db.query = this.routedQuery.bind(this) as DataSource['query'];
    db.transaction = (async (...args: unknown[]) => {
      const context = readContexts.getStore();
      if (context) context.onPrimary = true;
      const result: unknown = await (this.unrouted.transaction as (...a: unknown[]) => Promise<unknown>)(...args);
      if (context) await this.recordMark(context);
      return result;
    }) as DataSource['transaction'];
  }

  /** DataSource.query as repositories call it: with a QueryRunner (a transaction's), the primary's as before. */
  private routedQuery<T>(sql: string, parameters?: unknown[], queryRunner?: QueryRunner): Promise<T> {
    if (queryRunner) return this.unrouted.query<T>(sql, parameters, queryRunner);
    return this.route(sql, (source) =>
      source === this.primary ? this.unrouted.query<T>(sql, parameters) : source.query<T>(sql, parameters),
    );
  }

  private async replicaFor(context: ReadContext): Promise<Replica | null> {
    const { principal } = context.request;
    if (!principal || !mayReadReplicas(context) || context.onPrimary) return null;
    const now = Date.now();
    // Within the lag limit counting the time since the check; and checked lately, so that a replica
    // that stopped answering (a stalled server) stops serving within about a second.
    const serving = this.replicas.filter(
      (r) =>
        r.lagMs !== null &&
        r.lagMs + (now - r.checkedAt) <= this.maxLagMs &&
        now - r.checkedAt <= Math.max(1000, 4 * this.checkIntervalMs),
    );
    if (serving.length === 0) return null;
    const replica = serving[stableIndex(principal.organizationId, serving.length)];
    const mark = await (context.mark ??= this.markOf(principal.organizationId));
    if (mark === undefined) return null;
    if (mark === null || replica.replayed >= mark) return replica;
    // Behind the mark at its last check: it has usually replayed it since (streaming lag is
    // milliseconds), which one question to the replica tells.
    try {
      await this.readReplayed(replica);
    } catch (error) {
      if (!isReplicaFailure(error)) throw error;
      this.leaveOut(replica, error);
      return null;
    }
    return replica.replayed >= mark ? replica : null;
  }

  /** The organization's mark, null without one; undefined when Redis cannot say (the primary is then the safe choice). */
  private async markOf(organizationId: string): Promise<bigint | null | undefined> {
    try {
      const value = await this.redis.get(markKey(organizationId));
      return value === null ? null : BigInt(`0x${value}`);
    } catch {
      return undefined;
    }
  }

  /** A replica that failed serves nothing until its next check passes; the read is run again on the primary. */
  private leaveOut(replica: Replica, error: unknown): void {
    replica.lagMs = null;
    this.logger.warn({ replica: replica.index, err: error }, 'Replica read failed; reading the primary');
  }

  /** The position the replica has replayed now (it only moves forward). */
  private async readReplayed(replica: Replica): Promise<{ standby: boolean }> {
    const [row] = await replica.source.query<{ standby: boolean; replayed: string | null }[]>(
      `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed`,
    );
    if (row.replayed !== null) {
      const replayed = parseLsn(row.replayed);
      if (replayed > replica.replayed) replica.replayed = replayed;
    }
    return { standby: row.standby && row.replayed !== null };
  }

  /**
   * Records, before the request answers, the primary's position for its organization: later
   * requests (on any instance) then read the primary until their replica replays past it. A
   * request whose mark cannot be recorded fails (Redis down answers 503 everywhere already),
   * rather than answering a write its author might then not see.
   */
  private async recordMark(context: ReadContext): Promise<void> {
    const organizationId = context.request.principal?.organizationId;
    if (!organizationId) return;
    const [{ lsn }] = await this.unrouted.query<{ lsn: string }[]>(`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
    const mark = parseLsn(lsn);
    await this.redis.eval(MARK_SCRIPT, 1, markKey(organizationId), markValue(mark), MARK_TTL_MS);
    context.mark = Promise.resolve(mark);
  }

  private checkOnce(): Promise<void> {
    this.checking ??= this.check().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** Samples the primary's position, then each replica's; a replica that fails is left out until it answers. */
  private async check(): Promise<void> {
    const now = Date.now();
    try {
      const [{ lsn }] = await this.unrouted.query<{ lsn: string }[]>(`SELECT pg_current_wal_flush_lsn()::text AS lsn`);
      // Enough history to tell a lag up to the limit, and one check beyond it.
      this.samples = [
        ...this.samples.filter((s) => s.at >= now - this.maxLagMs - 2 * this.checkIntervalMs),
        { at: now, lsn: parseLsn(lsn) },
      ];
    } catch {
      // Without the primary's position no lag can be told: reads stay on the primary (which fails too).
      for (const replica of this.replicas) replica.lagMs = null;
      return;
    }
    await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
  }

  private async checkReplica(replica: Replica): Promise<void> {
    const servedBefore = replica.lagMs !== null;
    try {
      if (!replica.source.isInitialized) await replica.source.initialize();
      // A promoted replica is no longer fed by the primary: it serves nothing.
      if (!(await this.readReplayed(replica)).standby) throw new Error('not a standby');
      replica.lagMs = replicaLagMs(this.samples, replica.replayed, Date.now());
      replica.checkedAt = Date.now();
    } catch (error) {
      replica.lagMs = null;
      if (servedBefore) this.logger.warn({ replica: replica.index, err: error }, 'Replica left out: its check failed');
    }
    replicaLag.set({ replica: String(replica.index) }, replica.lagMs === null ? Infinity : replica.lagMs / 1000);
  }
}

/** Authenticated GET and HEAD requests: the only ones replicas serve. */
function mayReadReplicas({ request }: ReadContext): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && request.principal !== undefined;
}

/** A replica unreachable, failing over, or cancelling a read for replay (40001): the read can go to the primary. */
function isReplicaFailure(error: unknown): boolean {
  return isDependencyFailure(error) || (error as { code?: unknown } | null)?.code === RECOVERY_CONFLICT;
}

/** The same index for the same organization while the set of serving replicas stays the same. */
function stableIndex(organizationId: string, count: number): number {
  let hash = 0;
  for (let i = 0; i < organizationId.length; i++) hash = (hash * 31 + organizationId.charCodeAt(i)) | 0;
  return Math.abs(hash) % count;
}

/** Read replicas when DATABASE_REPLICA_URLS names some and the process serves HTTP (only requests read them). */
export const readsReplicas = (config: AppConfig) => config.replicas.urls.length > 0 && config.appRole !== 'worker';

@Module({ providers: [ReadRouter] })
export class ReadRoutingModule {}
