import type { LimitState } from '../errors/domain-errors';

const DAY_MS = 86_400_000;

/**
 * The end a window opened by a charge at `now` gets: `ttlMs` later, rounded down to a whole second.
 * A whole second makes X-RateLimit-Reset exact; rounding down keeps the window's start
 * (end - ttlMs) at or before its first charge, which is how a refund recognises the window it was
 * charged to (WindowCounter.refund). Ends are whole seconds, so a window opened after another
 * expired starts at or after that one's end.
 */
export function endOfWindowOpenedAt(now: number, ttlMs: number): number {
  return Math.floor((now + ttlMs) / 1000) * 1000;
}

/** The UTC day holding `now`: its date (`YYYY-MM-DD`) and its end, the next 00:00:00.000 UTC. */
export function utcDayOf(now: number): { date: string; endsAt: number } {
  // Unix time has no leap seconds: every UTC day is 86,400,000 ms from the epoch's midnight.
  return { date: new Date(now).toISOString().slice(0, 10), endsAt: (Math.floor(now / DAY_MS) + 1) * DAY_MS };
}

/**
 * The X-RateLimit-* and Retry-After figures of a window holding `count` at `now`. Both derive from
 * the window's end (a whole second, never read back from a remaining TTL): Reset is that second,
 * Retry-After the seconds from now to it rounded up, so Reset = floor(now in seconds) + Retry-After.
 */
export function limitState(window: { limit: number; endsAt: number }, count: number, now: number): LimitState {
  return {
    limit: window.limit,
    remaining: Math.max(0, window.limit - count),
    resetAt: Math.ceil(window.endsAt / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)),
  };
}
