import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Job, JobCounts, Queue } from 'bull';
import { Gauge, Histogram } from 'prom-client';
import { AppConfigService } from '../../config/app-config';
import { within } from '../errors/dependency-failure';
import { QueueRegistry } from '../queue/queue-registry';
import { metricsRegistry } from './metrics-registry';

/** The job counts exposed per queue, each as `engagement_queue_<state>{queue}`. */
export const QUEUE_STATES = [
  'waiting',
  'active',
  'delayed',
  'failed',
  'completed',
] as const satisfies readonly (keyof JobCounts)[];

/** The queues of every app of this process (one in production, several in tests). */
const sources = new Set<QueueSource>();

interface QueueSource {
  queues: Queue[];
  timeoutMs: number;
}

/** The counts of the scrape in progress: every gauge of one rendering shares one read per queue. */
let reading: Promise<Map<string, JobCounts | null>> | null = null;

function currentCounts(): Promise<Map<string, JobCounts | null>> {
  reading ??= readQueueCounts().finally(() => {
    reading = null;
  });
  return reading;
}

/**
 * Reads every queue's counts in parallel, each bounded by the Redis command timeout: a Redis that
 * does not answer makes the queue "down" (null) for this scrape rather than holding /metrics.
 */
async function readQueueCounts(): Promise<Map<string, JobCounts | null>> {
  const byName = new Map<string, { queue: Queue; timeoutMs: number }>();
  for (const { queues, timeoutMs } of sources)
    for (const queue of queues) if (!byName.has(queue.name)) byName.set(queue.name, { queue, timeoutMs });
  const read = async ([name, { queue, timeoutMs }]: [string, { queue: Queue; timeoutMs: number }]) =>
    [name, await within(queue.getJobCounts(), timeoutMs, 'The job queue').catch(() => null)] as const;
  return new Map(await Promise.all([...byName].map(read)));
}

for (const state of QUEUE_STATES) {
  new Gauge({
    name: `engagement_queue_${state}`,
    help: `Jobs ${state} in the queue, read from Redis at scrape time (the same figure from every process using the queue)`,
    labelNames: ['queue'],
    registers: [metricsRegistry],
    async collect() {
      const counts = await currentCounts();
      this.reset();
      for (const [queue, count] of counts) if (count) this.set({ queue }, count[state]);
    },
  });
}

new Gauge({
  name: 'engagement_queue_up',
  help: "1 when the queue's counts were read from Redis within the scrape's time limit, else 0 (its counts are then absent)",
  labelNames: ['queue'],
  registers: [metricsRegistry],
  async collect() {
    const counts = await currentCounts();
    this.reset();
    for (const [queue, count] of counts) this.set({ queue }, count ? 1 : 0);
  },
});

const jobDuration = new Histogram({
  name: 'engagement_job_duration_seconds',
  help: 'Time from a job attempt starting to its end, by queue, job type and outcome (completed, failed)',
  labelNames: ['queue', 'job', 'outcome'],
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

/** Job durations of the jobs this process runs (Bull's local events), and its queues for the counts. */
@Injectable()
export class QueueMetrics implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly source: QueueSource;

  constructor(
    private readonly registry: QueueRegistry,
    config: AppConfigService,
  ) {
    this.source = { queues: [], timeoutMs: config.values.timeouts.redisCommandMs };
  }

  onApplicationBootstrap(): void {
    this.source.queues = this.registry.all();
    sources.add(this.source);
    for (const queue of this.source.queues) {
      queue.on('completed', (job: Job) => observeDuration(queue.name, job, 'completed'));
      queue.on('failed', (job: Job) => observeDuration(queue.name, job, 'failed'));
    }
  }

  onModuleDestroy(): void {
    sources.delete(this.source);
  }
}

function observeDuration(queue: string, job: Job, outcome: 'completed' | 'failed'): void {
  if (!job.processedOn) return;
  jobDuration.observe(
    { queue, job: job.name, outcome },
    Math.max(0, (job.finishedOn ?? Date.now()) - job.processedOn) / 1000,
  );
}
