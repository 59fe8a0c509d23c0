/**
 * Delays before attempts 2..8, in units of WEBHOOK_RETRY_BASE_MS (5 s by default): about 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h. After the eighth attempt fails the message is given up.
 */
const RETRY_UNITS = [1, 60, 360, 1440, 3600, 7200, 7200];

/** Jitter spreads retries of many messages to one endpoint by up to this fraction either way. */
const JITTER = 0.2;

export const MAX_ATTEMPTS = RETRY_UNITS.length + 1;

/** An endpoint that failed every attempt this long is deactivated. */
export const DEACTIVATE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

/** The delay before the attempt after `attempt` (1-based), or null when none follows. `random` in [0, 1). */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number | null {
  const units = RETRY_UNITS[attempt - 1];
  if (units === undefined) return null;
  return Math.round(units * baseMs * (1 - JITTER + 2 * JITTER * random()));
}

/** True when an endpoint failing since `failingSince` has failed long enough to be switched off. */
export function shouldDeactivate(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DEACTIVATE_AFTER_MS;
}
