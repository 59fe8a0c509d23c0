import { TimestampInput } from '../validation/timestamps';

/**
 * `updated_since` of a syncable list: the records whose updatedAt is at or after it, in (updatedAt,
 * id) ascending order. A client passes its last seen updatedAt and follows nextCursor to the end.
 */
export const UpdatedSince = () =>
  TimestampInput({
    description:
      'Only records with updatedAt at or after this instant, sorted by (updatedAt, id) ascending (incremental sync).',
  });
