export const MAINTENANCE_QUEUE = 'maintenance';
export const PURGE_IDEMPOTENCY_RECORDS = 'purge-idempotency-records';
/** Hourly, at minute 17 (off the hour, away from other cron traffic). */
export const PURGE_IDEMPOTENCY_RECORDS_CRON = '17 * * * *';
export const COMPACT_SESSION_COUNTS = 'compact-session-counts';
/** Often enough that readers sum few pending deltas; a run with nothing to fold is one empty scan. */
export const COMPACT_SESSION_COUNTS_EVERY_MS = 30_000;
export const RUN_RETENTION = 'run-retention';
/** Daily at 03:43 UTC (docs/api.md §6.10): off the hour, in most installations' quietest hours. */
export const RUN_RETENTION_CRON = '43 3 * * *';
export const SWEEP_LINK_ACCESS = 'sweep-link-access';
/** Twice a minute: a link's expiry is announced (custom_link.expired) within a minute of it (issue 36). */
export const SWEEP_LINK_ACCESS_EVERY_MS = 30_000;
export const SWEEP_WEBHOOK_MESSAGES = 'sweep-webhook-messages';
/** Hourly, at minute 29 (docs/api.md §16.4). */
export const SWEEP_WEBHOOK_MESSAGES_CRON = '29 * * * *';
export const SAMPLE_EMAIL_GRAMS = 'sample-email-grams';
/** Every ten minutes: an organization's gram shares follow its growth by a quarter (EmailGramSamples). */
export const SAMPLE_EMAIL_GRAMS_EVERY_MS = 600_000;
