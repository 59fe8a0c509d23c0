import type { Job, Queue } from 'bull';
import { within } from '../errors/dependency-failure';

/**
 * Retries and cleanup of every Bull job, in one place. Callers add `jobId` (our own id), which makes
 * enqueueing idempotent: a second add of the same id is a no-op.
 */
export const JOB_OPTIONS = { attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: 100 } as const;

/**
 * Adds a job under our own id (a second add is a no-op) within `timeoutMs`: a queue whose Redis does
 * not answer fails the caller with a dependency timeout (503) instead of holding it.
 */
export function enqueue<T>(queue: Queue<T>, name: string, data: T, jobId: string, timeoutMs: number): Promise<Job<T>> {
  return within(queue.add(name, data, { ...JOB_OPTIONS, jobId }), timeoutMs, 'The job queue');
}
