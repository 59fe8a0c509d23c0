import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsDefined,
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { ApiInteger } from '../../../common/http/api-integer';
import { ToInteger } from '../../../common/validation/coercion';
import { EnumListFilter, IsEnumList, ToCommaList } from '../../../common/validation/enum-list';
import { TimestampInput } from '../../../common/validation/timestamps';
import { canonicalUuid, isUuid } from '../../../common/validation/uuid-format';
import {
  ANALYTICS_GROUPINGS,
  ANALYTICS_INTERVALS,
  ANALYTICS_METRICS,
  type AnalyticsGrouping,
  type AnalyticsInterval,
  type AnalyticsMetric,
} from '../rules/analytics';
import { DEVICE_TYPES, type DeviceType } from '../rules/event-context';
import { IncludeFlag } from './include-flags';

const choices = (values: readonly string[]) => Object.fromEntries(values.map((v) => [v, v]));

/** The most values of one filter (link ids: docs/api.md §6.9). */
const MAX_FILTER_VALUES = 100;

/** A multi-value text filter: comma list, repeated, or both; each value at most 255 characters. */
const TextListFilter = (description: string, normalize: (text: string) => string = (text) => text) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', maxLength: 255 },
      maxItems: MAX_FILTER_VALUES,
      description: `${description} One or more: comma-separated, repeated, or both.`,
    }),
    IsOptional(),
    ToCommaList((item) => (typeof item === 'string' ? normalize(item) : item)),
    ArrayMaxSize(MAX_FILTER_VALUES),
    // The whole list: its items are the comma form's parts, reported at the parameter as sent.
    ValidateBy({
      name: 'maxLength',
      constraints: [255],
      validator: {
        validate: (value) => Array.isArray(value) && value.every((item) => [...String(item)].length <= 255),
      },
    }),
  );

/** A multi-value uuid filter; each value in its canonical form. */
const UuidListFilter = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', format: 'uuid' },
      maxItems: MAX_FILTER_VALUES,
      description: `${description} One or more: comma-separated, repeated, or both.`,
    }),
    IsOptional(),
    ToCommaList((item) => canonicalUuid(item) ?? item),
    ArrayMaxSize(MAX_FILTER_VALUES),
    ValidateBy({ name: 'isUuid', validator: { validate: (value) => Array.isArray(value) && value.every(isUuid) } }),
  );

const lower = (text: string) => text.toLowerCase();

/** GET /api/v1/analytics (docs/api.md §6.9): one question per request. */
export class AnalyticsQuery {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...ANALYTICS_METRICS] },
    minItems: 1,
    description: `The figures to compute, in this order (the first orders non-time groupings). One or more of ${ANALYTICS_METRICS.join(', ')}: comma-separated, repeated, or both.`,
  })
  @IsDefined()
  @ToCommaList()
  @IsEnumList(ANALYTICS_METRICS)
  @ArrayMinSize(1)
  metrics: AnalyticsMetric[];

  @ApiProperty({ enum: ANALYTICS_GROUPINGS, description: 'What a row is: a time bucket, or a value of a dimension.' })
  @IsDefined()
  @IsEnum(choices(ANALYTICS_GROUPINGS))
  group_by: AnalyticsGrouping;

  @ApiPropertyOptional({
    enum: ANALYTICS_INTERVALS,
    description: 'The time bucket (required with group_by=time; ignored otherwise). A week starts on Monday.',
  })
  @IsOptional()
  @IsEnum(choices(ANALYTICS_INTERVALS))
  interval?: AnalyticsInterval;

  @TimestampInput({ required: true, description: 'Start of the range (inclusive).' }) from: Date;

  @TimestampInput({
    required: true,
    description: 'End of the range (exclusive): after `from`, at most 31 days later with interval=hour, 731 otherwise.',
  })
  to: Date;

  @ApiPropertyOptional({
    default: 'UTC',
    maxLength: 64,
    example: 'Europe/Berlin',
    description: 'An IANA time zone: buckets start at its local midnight (or hour), across daylight-saving changes.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone: string = 'UTC';

  @UuidListFilter('Only the links filed in these campaigns (now).') campaign_id?: string[];

  @UuidListFilter('Only these links.') link_id?: string[];

  @TextListFilter('Only events from these countries (ISO 3166-1 alpha-2).', (text) => text.toUpperCase())
  country?: string[];

  @EnumListFilter(DEVICE_TYPES, 'Only events from these device types.') device_type?: DeviceType[];

  @TextListFilter('Only events with this utm_source.') utm_source?: string[];

  @TextListFilter('Only events with this utm_medium.') utm_medium?: string[];

  @TextListFilter('Only events with this utm_campaign.') utm_campaign?: string[];

  @TextListFilter('Only events referred by these registrable domains.', lower) referrer_domain?: string[];

  @TextListFilter("Only the links of these accounts (the prospect's registrable domain).", lower)
  account_domain?: string[];

  @IncludeFlag('Count bot events in every metric.') include_bots: boolean = false;

  @IncludeFlag("Count internal events (the organization's own traffic) in every metric.")
  include_internal: boolean = false;

  @ApiInteger({
    required: false,
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Rows of a non-time grouping: the top keys by the first metric.',
  })
  @ToInteger()
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;

  @ApiPropertyOptional({
    enum: ['previous'],
    description: 'previous: also the totals of the range of the same duration just before `from`.',
  })
  @IsOptional()
  @IsEnum({ previous: 'previous' })
  compare?: 'previous';

  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json', description: 'csv: the rows as text/csv.' })
  @IsOptional()
  @IsEnum({ json: 'json', csv: 'csv' })
  format: 'json' | 'csv' = 'json';
}
