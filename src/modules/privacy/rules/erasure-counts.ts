/** An erasure's states, in order: queued → running → completed, or failed (docs/api.md §18.1). */
export const ERASURE_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ErasureStatus = (typeof ERASURE_STATUSES)[number];

/** The kinds an erasure counts, in the order its answer lists them. */
export const ERASED_KINDS = [
  'sessions',
  'transcripts',
  'people',
  'customLinks',
  'events',
  'exports',
  'webhookDeliveries',
  'idempotencyRecords',
] as const;
export type ErasedKind = (typeof ERASED_KINDS)[number];
export type ErasureCountsOf = Record<ErasedKind, number>;

/**
 * The counts so far plus a step's: a run killed after some steps is resumed by the next, whose steps
 * find only what is left, so the stored counts add up to what was erased in all.
 */
export function addCounts(so: Partial<ErasureCountsOf> | null, step: Partial<ErasureCountsOf>): ErasureCountsOf {
  return Object.fromEntries(
    ERASED_KINDS.map((kind) => [kind, (so?.[kind] ?? 0) + (step[kind] ?? 0)]),
  ) as ErasureCountsOf;
}
