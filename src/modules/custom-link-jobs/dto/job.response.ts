import { ApiProperty } from '@nestjs/swagger';
import { ApiNextCursor } from '../../../common/pagination/pagination.response';
import { isoOrNull } from '../../../common/validation/timestamps';
import { progressFactsOf, type ItemRow, type JobView } from '../custom-link-jobs.repository';
import { isTerminal, POLL_AFTER_SECONDS, progressOf } from '../rules/job-status';
import { ApiInteger } from '../../../common/http/api-integer';

const time = { type: String, format: 'date-time', nullable: true } as const;
const uuid = { type: String, format: 'uuid', nullable: true } as const;

/** Custom Link job (docs/api.md §2.8). */
export class JobResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['create', 'thumbnail'] }) type: string;
  @ApiProperty({ enum: ['queued', 'processing', 'completed', 'completed_with_errors', 'cancelled', 'failed'] })
  status: string;
  @ApiInteger() totalItems: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty(time) startedAt: string | null;
  @ApiProperty(time) completedAt: string | null;
  @ApiProperty(uuid) campaignId: string | null;
  @ApiProperty(uuid) parentJobId: string | null;
  @ApiInteger() createdCount: number;
  @ApiInteger() failedCount: number;
  @ApiInteger() thumbnailQueuedCount: number;
  @ApiInteger() thumbnailProcessingCount: number;
  @ApiInteger() thumbnailGeneratedCount: number;
  @ApiInteger() thumbnailProvidedCount: number;
  @ApiInteger() thumbnailFallbackCount: number;
  @ApiInteger() thumbnailFailedCount: number;
  @ApiProperty({ minimum: 0, maximum: 1 }) progress: number;
  @ApiInteger({ nullable: true }) pollAfterSeconds: number | null;
  @ApiProperty() cancelRequested: boolean;
}

/** Where a job is polled: the Location of the 202 that started it. */
export const jobLocation = (jobId: string) => `/api/v1/custom-link-jobs/${jobId}`;

export class JobEnvelopeResponse {
  @ApiProperty({ type: JobResponse }) job: JobResponse;
}

export class JobListResponse {
  @ApiProperty({ type: [JobResponse] }) jobs: JobResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiNextCursor() nextCursor: string | null;
}

export class ItemErrorResponse {
  @ApiProperty({ enum: ['quota_exceeded', 'campaign_not_found', 'internal_error'] }) code: string;
  @ApiProperty() message: string;
}

export class JobItemResponse {
  @ApiInteger() index: number;
  @ApiProperty({ enum: ['queued', 'created', 'failed', 'cancelled'] }) status: string;
  @ApiProperty(uuid) customLinkId: string | null;
  @ApiProperty({ type: String, nullable: true }) externalId: string | null;
  @ApiProperty({ type: ItemErrorResponse, nullable: true }) error: ItemErrorResponse | null;
}

export class JobItemListResponse {
  @ApiProperty({ type: [JobItemResponse] }) items: JobItemResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiNextCursor() nextCursor: string | null;
}

export function toJobResponse(job: JobView): JobResponse {
  const thumbnails = (status: string) => job.thumbnails[status] ?? 0;
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    totalItems: job.total_items,
    createdAt: job.created_at.toISOString(),
    updatedAt: job.updated_at.toISOString(),
    startedAt: isoOrNull(job.started_at),
    completedAt: isoOrNull(job.completed_at),
    campaignId: job.campaign_id,
    parentJobId: job.parent_job_id,
    createdCount: job.created,
    failedCount: job.failed,
    thumbnailQueuedCount: thumbnails('queued'),
    thumbnailProcessingCount: thumbnails('processing'),
    thumbnailGeneratedCount: thumbnails('generated'),
    thumbnailProvidedCount: thumbnails('provided'),
    thumbnailFallbackCount: thumbnails('fallback'),
    thumbnailFailedCount: thumbnails('failed'),
    progress: progressOf(progressFactsOf(job), job.status),
    pollAfterSeconds: isTerminal(job.status) ? null : POLL_AFTER_SECONDS,
    cancelRequested: job.cancel_requested,
  };
}

export function toJobItemResponse(item: ItemRow): JobItemResponse {
  return {
    index: item.index,
    status: item.status,
    customLinkId: item.status === 'created' ? item.custom_link_id : null,
    externalId: item.external_id,
    error: item.error_code ? { code: item.error_code, message: item.error_message ?? '' } : null,
  };
}
