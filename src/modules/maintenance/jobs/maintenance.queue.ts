export const MAINTENANCE_QUEUE = 'maintenance';
export const PURGE_IDEMPOTENCY_RECORDS = 'purge-idempotency-records';
/** Hourly, at minute 17 (off the hour, away from other cron traffic). */
export const PURGE_IDEMPOTENCY_RECORDS_CRON = '17 * * * *';
