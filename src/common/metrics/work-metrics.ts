import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from './metrics-registry';

/**
 * What users feel of the work the workers do: webhook deliveries, export files and share cards.
 * Labels are words of the code (an outcome, a format, a resource), never an endpoint's URL, an
 * organization or anything else a caller sent.
 */

/**
 * What a webhook attempt came to: `success` (a 2xx in time), `http_error` (any other answer),
 * `timeout` (no answer within the delivery timeout), `unreachable` (no connection: the host did not
 * resolve, is not public, refused, reset).
 */
export type WebhookAttemptOutcome = 'success' | 'http_error' | 'timeout' | 'unreachable';

const webhookAttempts = new Counter({
  name: 'engagement_webhook_attempts_total',
  help: 'Webhook delivery attempts (HTTP POSTs to an endpoint) by outcome: success, http_error, timeout, unreachable',
  labelNames: ['outcome'],
  registers: [metricsRegistry],
});

const webhookAttemptDuration = new Histogram({
  name: 'engagement_webhook_attempt_duration_seconds',
  help: "Time from a webhook attempt's start (address resolution included) to the endpoint's answer or the failure, by outcome",
  labelNames: ['outcome'],
  // Attempts give up at 10 s (DELIVERY_TIMEOUT_MS).
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
  registers: [metricsRegistry],
});

const webhookEndpointsDisabled = new Counter({
  name: 'engagement_webhook_endpoints_disabled_total',
  help: 'Webhook endpoints deactivated after five days of failed deliveries',
  registers: [metricsRegistry],
});

export function observeWebhookAttempt(outcome: WebhookAttemptOutcome, durationMs: number): void {
  webhookAttempts.inc({ outcome });
  webhookAttemptDuration.observe({ outcome }, durationMs / 1000);
}

export function countWebhookEndpointDisabled(): void {
  webhookEndpointsDisabled.inc();
}

const exportRows = new Counter({
  name: 'engagement_export_rows_total',
  help: 'Rows written to completed export files, by resource and format',
  labelNames: ['resource', 'format'],
  registers: [metricsRegistry],
});

const exportBytes = new Counter({
  name: 'engagement_export_bytes_total',
  help: 'Bytes (gzip, as stored and downloaded) of completed export files, by resource and format',
  labelNames: ['resource', 'format'],
  registers: [metricsRegistry],
});

const exportDuration = new Histogram({
  name: 'engagement_export_duration_seconds',
  help: "Time an export run took, from its start on a worker to its file's end, by outcome (completed, failed)",
  labelNames: ['outcome'],
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900],
  registers: [metricsRegistry],
});

export interface ExportRun {
  resource: string;
  format: string;
  durationMs: number;
}

export function observeExportCompleted(run: ExportRun, rows: number, bytes: number): void {
  const labels = { resource: run.resource, format: run.format };
  exportRows.inc(labels, rows);
  exportBytes.inc(labels, bytes);
  exportDuration.observe({ outcome: 'completed' }, run.durationMs / 1000);
}

/** A run that ended the export as failed (not one that throws and is retried: engagement_job_duration_seconds counts those). */
export function observeExportFailed(run: ExportRun): void {
  exportDuration.observe({ outcome: 'failed' }, run.durationMs / 1000);
}

/** A card render's outcome: the link's thumbnailStatus (generated, fallback, failed), with `timeout` split out of failed. */
export type CardRenderOutcome = 'generated' | 'fallback' | 'failed' | 'timeout';

const cardRenders = new Counter({
  name: 'engagement_card_renders_total',
  help: 'Share card renders by outcome: generated, fallback (default card, the logo unusable), failed, timeout',
  labelNames: ['outcome'],
  registers: [metricsRegistry],
});

const cardRenderDuration = new Histogram({
  name: 'engagement_card_render_duration_seconds',
  help: 'Time a share card render took: fetching the logo and drawing the card',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

export function observeCardRender(outcome: CardRenderOutcome, durationMs: number): void {
  cardRenders.inc({ outcome });
  cardRenderDuration.observe(durationMs / 1000);
}
