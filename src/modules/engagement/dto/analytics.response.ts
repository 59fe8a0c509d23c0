import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-integer';
import { ANALYTICS_GROUPINGS, ANALYTICS_INTERVALS, ANALYTICS_METRICS, type AnalyticsMetric } from '../rules/analytics';
import { AS_OF } from './as-of';

const METRIC = (name: AnalyticsMetric) =>
  ApiInteger({ required: false, minimum: 0, description: `Present when asked (${name}).` });

/** The figures asked for: each metric asked is present, the others are absent. */
export class AnalyticsFiguresResponse implements Partial<Record<AnalyticsMetric, number>> {
  @METRIC('opens') opens?: number;
  @METRIC('loads') loads?: number;
  @METRIC('visitors') visitors?: number;
  @METRIC('sessions') sessions?: number;
  @METRIC('startedSessions') startedSessions?: number;
  @METRIC('engagedSessions') engagedSessions?: number;
  @METRIC('leads') leads?: number;
  @METRIC('meetingsClicked') meetingsClicked?: number;
  @METRIC('meetingsBooked') meetingsBooked?: number;
  @METRIC('botOpens') botOpens?: number;
  @METRIC('internalOpens') internalOpens?: number;
}

/** One row: a time bucket or a dimension's value, and its figures. */
export class AnalyticsRowResponse extends AnalyticsFiguresResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "group_by=time: the bucket's start in the zone's local time with its offset (2026-03-29T00:00:00.000+01:00); otherwise the value (a country, a device type, a link or campaign id, a domain), null for unknown.",
  })
  key: string | null;
}

/** GET /api/v1/analytics (docs/api.md §6.9). */
export class AnalyticsResponse {
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...ANALYTICS_METRICS] } }) metrics: AnalyticsMetric[];
  @ApiProperty({ enum: ANALYTICS_GROUPINGS }) groupBy: string;
  @ApiProperty({ enum: ANALYTICS_INTERVALS, nullable: true, type: String, description: 'null unless group_by=time.' })
  interval: string | null;
  @ApiProperty({ example: 'Europe/Berlin' }) timezone: string;
  @ApiProperty({ format: 'date-time' }) from: string;
  @ApiProperty({ format: 'date-time' }) to: string;
  @ApiProperty({ format: 'date-time', description: AS_OF }) asOf: string;
  @ApiProperty({
    type: [AnalyticsRowResponse],
    description:
      'group_by=time: every bucket of the range, ascending, zeros included. Otherwise the top `limit` keys by the first metric (descending, then key ascending, null last).',
  })
  rows: AnalyticsRowResponse[];
  @ApiProperty({
    type: AnalyticsFiguresResponse,
    description: 'The whole filtered range: each visitor, session and link counted once (not a sum of rows).',
  })
  totals: AnalyticsFiguresResponse;
  @ApiProperty({
    type: AnalyticsFiguresResponse,
    nullable: true,
    description: 'compare=previous: the totals of the range of the same duration just before `from`; otherwise null.',
  })
  previous: AnalyticsFiguresResponse | null;
}
