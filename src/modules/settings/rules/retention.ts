/** docs/api.md §6.10: how long each kind of data is kept, in days; null keeps it. */
export interface RetentionPolicy {
  transcriptDays: number | null;
  sessionDays: number | null;
  eventDays: number | null;
}

export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3650;

const DAY_MS = 86_400_000;

export const keepEverything = (): RetentionPolicy => ({ transcriptDays: null, sessionDays: null, eventDays: null });

/** What a run deletes: data older than each instant (null: nothing of that kind). */
export interface RetentionCutoffs {
  transcripts: Date | null;
  sessions: Date | null;
  events: Date | null;
}

export function retentionCutoffs(policy: RetentionPolicy, now: Date): RetentionCutoffs {
  const before = (days: number | null) => (days === null ? null : new Date(now.getTime() - days * DAY_MS));
  return {
    transcripts: before(policy.transcriptDays),
    sessions: before(policy.sessionDays),
    events: before(policy.eventDays),
  };
}
