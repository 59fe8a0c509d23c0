/** The first instant of the UTC month holding `at`, `months` months later. */
export function utcMonthStart(at: Date, months = 0): Date {
  // Not Date.UTC, which reads years 0-99 as 1900-1999.
  const start = new Date(0);
  start.setUTCFullYear(at.getUTCFullYear(), at.getUTCMonth() + months, 1);
  return start;
}

/**
 * The whole UTC months inside a start-time range (`to` inclusive), which per-month counts answer,
 * as [start, end) month boundaries: `start` is absent without a lower bound, `end` without an upper
 * one. Null when no whole month fits. What lies outside them, [from, start) and [end, to], is
 * counted from the sessions themselves.
 */
export function wholeMonthsWithin(from: Date | undefined, to: Date | undefined): { start?: Date; end?: Date } | null {
  const start =
    from === undefined ? undefined : utcMonthStart(from).getTime() === from.getTime() ? from : utcMonthStart(from, 1);
  // A month [m, e) lies inside when its last instant (e minus a microsecond) is <= to; at millisecond precision, e <= to.
  const end = to === undefined ? undefined : utcMonthStart(to);
  if (start && end && start >= end) return null;
  return { start, end };
}
