import type { Job, Queue } from 'bull';
import { within } from '../errors/dependency-failure';
import { withTraceContext } from '../tracing/trace-context';

/**
 * Retries and cleanup of every Bull job, in one place. Callers add `jobId` (our own id), which makes
 * enqueueing idempotent: a second add of the same id is a no-op.
 */
export const JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: 100,
} as const;

/**
 * Adds a job under our own id (a second add is a no-op) within `timeoutMs`: a queue whose Redis does
 * not answer fails the caller with a dependency timeout (503) instead of holding it. With tracing on,
 * the data also carries the active span's context (`trace`), which the job's span links to.
 */
export function enqueue<T>(queue: Queue<T>, name: string, data: T, jobId: string, timeoutMs: number): Promise<Job<T>> {
  return within(queue.add(name, withTraceContext(data), { ...JOB_OPTIONS, jobId }), timeoutMs, 'The job queue');
}

/**
 * Bull fails a job found stalled (its worker died: lock lapsed) more than this many times, instead
 * of handing it to the next worker at once. Kept at Bull's default, 1: a rollout that kills a worker
 * is recovered by Bull within QUEUE_LOCK_DURATION_MS + QUEUE_STALLED_INTERVAL_MS; a job whose workers
 * keep dying may be what kills them (memory, a pathological input), and passing it straight on
 * could crash the fleet in a loop. The JobReaper re-queues such a job once its lease lapsed: it still
 * finishes, at most one lease later per further crash.
 */
export const MAX_STALLED_COUNT = 1;

/** What `requeue` found of a job in its queue: `live` was left alone, the others were (re-)added. */
export type RequeueFound = 'live' | 'absent' | 'failed' | 'completed' | 'stuck';

const LIVE_STATES = new Set(['waiting', 'delayed', 'active', 'paused']);

/**
 * Hands a job back to its queue under our id within `timeoutMs`. A job Bull still holds as waiting,
 * delayed or active is live and left alone; a finished one (failed as stalled, out of attempts) is
 * removed first, since Bull ignores an add under an id it still knows. Removal refuses a job that a
 * worker has locked, and the add is a no-op for an id added meanwhile: racing a worker or another
 * sweeper, nothing runs twice at once.
 */
export function requeue<T>(
  queue: Queue<T>,
  name: string,
  data: T,
  jobId: string,
  timeoutMs: number,
): Promise<RequeueFound> {
  return within(requeueNow(queue, name, data, jobId), timeoutMs, 'The job queue');
}

async function requeueNow<T>(queue: Queue<T>, name: string, data: T, jobId: string): Promise<RequeueFound> {
  const existing = await queue.getJob(jobId);
  const state = existing ? await existing.getState() : 'absent';
  if (LIVE_STATES.has(state)) return 'live';
  await existing?.remove();
  await queue.add(name, withTraceContext(data), { ...JOB_OPTIONS, jobId });
  return state as RequeueFound;
}
