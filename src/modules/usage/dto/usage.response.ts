import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-integer';

/** One limit window (docs/api.md §8): its figures as the limit enforces them. */
export class UsageWindowResponse {
  @ApiInteger({ minimum: 0 }) limit: number;
  @ApiInteger({ minimum: 0, description: 'Units charged to the current window (0 when no window is open).' })
  used: number;
  @ApiInteger({ minimum: 0 }) remaining: number;

  @ApiProperty({
    format: 'date-time',
    description:
      "The window's end, when its count starts again from zero. A window not open yet reports the end a window opened now would get (a request-rate, mutation or unit window opens with its first charge; the transcript quota's window is the UTC day).",
  })
  resetAt: string;
}

/** Hourly and daily windows of a unit quota (docs/api.md §8.4). */
export class HourAndDayUsageResponse {
  @ApiProperty({ type: UsageWindowResponse }) hour: UsageWindowResponse;
  @ApiProperty({ type: UsageWindowResponse }) day: UsageWindowResponse;
}

export class UsageResponse {
  @ApiProperty({
    type: UsageWindowResponse,
    description:
      "The calling key's 60 s request window, this request included: the X-RateLimit-* headers of the same response.",
  })
  requestRate: UsageWindowResponse;

  @ApiProperty({
    type: UsageWindowResponse,
    description: "The organization's transcript reads of the current UTC day.",
  })
  transcriptReads: UsageWindowResponse;

  @ApiProperty({ type: UsageWindowResponse, description: "The organization's 60 s link-mutation window." })
  linkMutations: UsageWindowResponse;

  @ApiProperty({ type: HourAndDayUsageResponse }) linkCreationUnits: HourAndDayUsageResponse;
  @ApiProperty({ type: HourAndDayUsageResponse }) thumbnailRenderUnits: HourAndDayUsageResponse;
}

/** A window's figures from its count and end (Unix ms); remaining never goes below zero. */
export function toUsageWindow(limit: number, used: number, endsAt: number): UsageWindowResponse {
  return { limit, used, remaining: Math.max(0, limit - used), resetAt: new Date(endsAt).toISOString() };
}
