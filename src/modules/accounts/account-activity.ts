import { defineKeyedPort } from '../../common/wiring/port';

/** The kinds of an account's activity, in their order at one instant: sessions first, then events. */
export const ACTIVITY_KINDS = ['session', 'event'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** An item's place in the activity (a cursor's keyset): its instant as PostgreSQL writes it (microseconds), kind and key. */
export interface ActivityPosition {
  at: string;
  kind: ActivityKind;
  key: string;
}

/**
 * One item of an account's activity (docs/api.md §4.2) as its source's statement selects it; what
 * does not apply to the kind is null.
 */
export interface ActivityRow {
  occurred_at: Date;
  session_id: string | null;
  person_id: string | null;
  custom_link_id: string | null;
  event_id: string | null;
  type: string | null;
  /** occurred_at as PostgreSQL's text, microseconds included (the cursor holds it). */
  at: string;
  /** occurred_at in microseconds since the epoch, as int8 text: the kinds are merged on it (a Date keeps milliseconds). */
  micros: string;
  /** The item's key in its kind's order (a session id, an eventId), as text. */
  key: string;
}

/**
 * Where a source continues after a position: right after `key` at `at` when the position is of its
 * own kind (its order is (occurredAt, key) descending), else before `at`, or at it too when the
 * source's kind comes after the position's at one instant.
 */
export type ActivityBound = { at: string; key: string } | { at: string; inclusive: boolean };

export function boundAfter(kind: ActivityKind, after: ActivityPosition): ActivityBound {
  if (after.kind === kind) return { at: after.at, key: after.key };
  return { at: after.at, inclusive: ACTIVITY_KINDS.indexOf(kind) > ACTIVITY_KINDS.indexOf(after.kind) };
}

/**
 * One kind of an account's activity, from the module that owns it (sessions: the sessions of the
 * account's people; engagement: the events of its links), which implements the port for its kind.
 */
export interface AccountActivitySource {
  readonly kind: ActivityKind;
  /** A page of this kind of the organization's account activity; a keyset read. */
  page(organizationId: string, query: ActivityPageQuery): Promise<ActivityRow[]>;
}

/**
 * The first `limit` items of one kind of the activity of the account `domain`, newest first
 * (occurredAt, then the kind's key, descending), after `bound` when given.
 */
export interface ActivityPageQuery {
  domain: string;
  bound: ActivityBound | null;
  limit: number;
}

export const ACCOUNT_ACTIVITY = defineKeyedPort<AccountActivitySource, ActivityKind>('account activity', {
  keysOf: (source) => source.kind,
  required: ACTIVITY_KINDS,
});
