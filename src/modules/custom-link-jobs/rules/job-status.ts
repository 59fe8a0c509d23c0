/**
 * Custom Link job states (docs/api.md §3.2, §12.5): queued → processing → completed |
 * completed_with_errors | failed; queued → cancelled; processing with cancelRequested → cancelled
 * after the item in hand. A job is terminal only when every item is settled and every thumbnail
 * render it queued is settled.
 */
export const JOB_STATUSES = [
  'queued',
  'processing',
  'completed',
  'completed_with_errors',
  'cancelled',
  'failed',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_STATUSES: readonly JobStatus[] = ['completed', 'completed_with_errors', 'cancelled', 'failed'];

export interface JobProgressFacts {
  totalItems: number;
  created: number;
  failed: number;
  cancelled: number;
  rendersQueued: number;
  rendersSettled: number;
}

export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/** The status a job settles in once nothing is pending; null while items or renders are pending. */
export function settledStatus(facts: JobProgressFacts): JobStatus | null {
  const pendingItems = facts.totalItems - facts.created - facts.failed - facts.cancelled;
  if (pendingItems > 0 || facts.rendersSettled < facts.rendersQueued) return null;
  if (facts.cancelled > 0) return 'cancelled';
  if (facts.failed === 0) return 'completed';
  return facts.created === 0 ? 'failed' : 'completed_with_errors';
}

/** Share of all work units done: one per item plus one per render the job queued. */
export function progressOf(facts: JobProgressFacts, status: string): number {
  if (isTerminal(status)) return 1;
  const units = facts.totalItems + facts.rendersQueued;
  const done = facts.created + facts.failed + facts.cancelled + facts.rendersSettled;
  return units === 0 ? 0 : Math.min(1, done / units);
}

export const POLL_AFTER_SECONDS = 2;
