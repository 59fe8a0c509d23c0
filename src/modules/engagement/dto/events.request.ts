import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { FastParse } from '../../../common/validation/fast-parse.decorator';
import { parseTimestamp, TimestampInput } from '../../../common/validation/timestamps';
import { canonicalUuid } from '../../../common/validation/uuid-format';
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

  @TimestampInput({ required: true }) occurredAt: Date;

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

@FastParse(parseCommonBatch)
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

/**
 * A batch as the decorators above would leave it, for input that plainly satisfies them: events
 * that are objects holding only printable ASCII text (so a string's length is its character count
 * under any rule), a uuid `customLinkId`, and no nulls; undefined for anything else. Unknown fields
 * are dropped, as whitelisting drops them.
 */
function parseCommonBatch(raw: object): EventsRequest | undefined {
  const items = (raw as { events?: unknown }).events;
  if (!Array.isArray(items) || items.length < 1 || items.length > MAX_EVENTS_PER_REQUEST) return undefined;
  const events: EventInput[] = [];
  for (const item of items) {
    const event = parseCommonEvent(item);
    if (!event) return undefined;
    events.push(event);
  }
  return Object.assign(new EventsRequest(), { events });
}

const PRINTABLE = /^[\x20-\x7e]*$/;
const text = (value: unknown, min: number, max: number): value is string =>
  typeof value === 'string' && value.length >= min && value.length <= max && PRINTABLE.test(value);
const optionalText = (value: unknown, max: number) => value === undefined || text(value, 0, max);
const EVENT_FIELDS = new Set([
  'eventId',
  'type',
  'customLinkId',
  'slug',
  'occurredAt',
  'pageViewId',
  'visitorId',
  'sessionId',
  'userAgent',
  'bot',
]);

function parseCommonEvent(item: unknown): EventInput | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const e = item as Record<string, unknown>;
  const customLinkId = canonicalUuid(e.customLinkId);
  const sessionId = e.sessionId === undefined ? undefined : canonicalUuid(e.sessionId);
  const occurredAt = typeof e.occurredAt === 'string' ? parseTimestamp(e.occurredAt) : null;
  const valid =
    text(e.eventId, 1, 128) &&
    (EVENT_TYPES as readonly unknown[]).includes(e.type) &&
    customLinkId !== null &&
    occurredAt !== null &&
    optionalText(e.slug, 64) &&
    optionalText(e.pageViewId, 128) &&
    optionalText(e.visitorId, 128) &&
    sessionId !== null &&
    optionalText(e.userAgent, 2000) &&
    (e.bot === undefined || typeof e.bot === 'boolean');
  if (!valid) return undefined;
  const event = new EventInput();
  for (const key of Object.keys(e))
    if (EVENT_FIELDS.has(key)) (event as unknown as Record<string, unknown>)[key] = e[key];
  return Object.assign(event, { customLinkId, occurredAt }, sessionId === undefined ? {} : { sessionId });
}
