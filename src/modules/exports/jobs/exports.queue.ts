export const EXPORTS_QUEUE = 'exports';
export const RUN_EXPORT = 'run-export';
export const SWEEP_EXPIRED_EXPORTS = 'sweep-expired-exports';
/** How often expired exports are deleted (they answer 404 from their expiry on, swept or not). */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface RunExportPayload {
  organizationId: string;
  exportId: string;
}
