export const PEOPLE_INTENT_QUEUE = 'people-intent';
export const REFRESH_INTENT = 'refresh-intent';
/** Daily at 03:07 UTC, away from the top of the hour. */
export const REFRESH_INTENT_CRON = '7 3 * * *';

/** Backfill options: `asOf` (ISO 8601) recomputes as of another instant (default now); `organizationId` only that one. */
export interface RefreshIntentPayload {
  asOf?: string;
  organizationId?: string;
}
