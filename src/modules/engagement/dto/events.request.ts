import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsIn, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { IsTimestamp, ToTimestamp } from '../../../common/validation/timestamps';
import { IsUuidString } from '../../../common/validation/validators';
import { EVENT_TYPES, type EventType } from '../rules/engagement-rollup';
import { ApiInteger } from '../../../common/http/api-integer';

export const MAX_EVENTS_PER_REQUEST = 1000;

/** One event of POST /api/v1/events (docs/api.md §6.2); a link by `customLinkId` or `slug`. */
export class EventInput {
  @ApiProperty({ minLength: 1, maxLength: 128, description: 'Unique per organization; a repeat is a duplicate.' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  eventId: string;

  @ApiProperty({ enum: EVENT_TYPES })
  @IsDefined()
  @IsIn(EVENT_TYPES)
  type: EventType;

  @ApiPropertyOptional({ format: 'uuid', description: 'The link; required unless `slug` is given.' })
  @ValidateIf((event: EventInput) => event.slug === undefined || event.customLinkId !== undefined)
  @IsDefined()
  @IsUuidString()
  customLinkId?: string;

  @ApiPropertyOptional({ maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  slug?: string;

  @ApiProperty({ format: 'date-time' })
  @IsDefined()
  @ToTimestamp()
  @IsTimestamp()
  occurredAt: Date;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  pageViewId?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  visitorId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuidString()
  sessionId?: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  userAgent?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  bot?: boolean;
}

export class EventsRequest {
  @ApiProperty({ type: [EventInput], minItems: 1, maxItems: MAX_EVENTS_PER_REQUEST })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_EVENTS_PER_REQUEST)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => EventInput)
  events: EventInput[];
}

export class RejectedEventResponse {
  @ApiInteger() index: number;
  @ApiProperty({ enum: ['unknown_link'] }) reason: string;
}

export class EventsResponse {
  @ApiInteger() accepted: number;
  @ApiInteger() duplicates: number;
  @ApiProperty({ type: [RejectedEventResponse] }) rejected: RejectedEventResponse[];
}
