import { isIP } from 'node:net';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsIP,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { FastParse } from '../../../common/validation/fast-parse.decorator';
import { parseTimestamp, TimestampInput } from '../../../common/validation/timestamps';
import { canonicalUuid } from '../../../common/validation/uuid-format';
import { IsUuidString } from '../../../common/validation/validators';
import { INGESTED_EVENT_TYPES, type IngestedEventType } from '../rules/engagement-rollup';
import { UTM_FIELDS, UTM_MAX_LENGTH } from '../rules/event-context';
import { ApiInteger } from '../../../common/http/api-integer';

export const MAX_EVENTS_PER_REQUEST = 1000;
const REFERRER_MAX_LENGTH = 2048;
const COUNTRY = /^[A-Za-z]{2}$/;

/** An event's UTM parameters (docs/api.md §6.2). */
export class UtmInput {
  @ApiPropertyOptional({ maxLength: UTM_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(UTM_MAX_LENGTH)
  source?: string;
  @ApiPropertyOptional({ maxLength: UTM_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(UTM_MAX_LENGTH)
  medium?: string;
  @ApiPropertyOptional({ maxLength: UTM_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(UTM_MAX_LENGTH)
  campaign?: string;
  @ApiPropertyOptional({ maxLength: UTM_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(UTM_MAX_LENGTH)
  term?: string;
  @ApiPropertyOptional({ maxLength: UTM_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(UTM_MAX_LENGTH)
  content?: string;
}

/** One event of POST /api/v1/events (docs/api.md §6.2); a link by `customLinkId` or `slug`. */
export class EventInput {
  @ApiProperty({ minLength: 1, maxLength: 128, description: 'Unique per organization; a repeat is a duplicate.' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  eventId: string;

  @ApiProperty({ enum: INGESTED_EVENT_TYPES })
  @IsDefined()
  @IsIn(INGESTED_EVENT_TYPES)
  type: IngestedEventType;

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

  @ApiPropertyOptional({
    pattern: '^[A-Za-z]{2}$',
    description: "The visitor's country, ISO 3166-1 alpha-2 (stored upper case); wins over `clientIp`.",
  })
  @IsOptional()
  @IsString()
  @Matches(COUNTRY, { message: 'must be an ISO 3166-1 alpha-2 country code' })
  country?: string;

  @ApiPropertyOptional({
    description:
      "The visitor's IP address (IPv4 or IPv6): its country is looked up when `country` is not given. Never stored, never logged.",
  })
  @IsOptional()
  @IsString()
  @IsIP(undefined, { message: 'must be an IPv4 or IPv6 address' })
  clientIp?: string;

  @ApiPropertyOptional({
    maxLength: REFERRER_MAX_LENGTH,
    description: 'The page that led to the experience (a URL or a host name); only its registrable domain is kept.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(REFERRER_MAX_LENGTH)
  referrer?: string;

  @ApiPropertyOptional({
    description:
      "true: sent by the organization's own people (docs/api.md §6.8): stored as internal (reason declared), counted only in the link's internalOpens.",
  })
  @IsOptional()
  @IsBoolean()
  internal?: boolean;

  @ApiPropertyOptional({ type: UtmInput })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => UtmInput)
  utm?: UtmInput;
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
  'country',
  'clientIp',
  'referrer',
  'internal',
]);
const UTM_KEYS: ReadonlySet<string> = new Set(UTM_FIELDS);
/** Digits, hex, dots and colons only: forms on which node:net and class-validator agree (no zone ids). */
const PLAIN_ADDRESS = /^[0-9A-Fa-f:.]{2,45}$/;

/** A plain UTM object: known keys with printable text within bounds (unknown keys dropped); undefined for anything else. */
function commonUtm(value: unknown): UtmInput | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const utm = new UtmInput();
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (!UTM_KEYS.has(key)) continue;
    if (!text(field, 0, UTM_MAX_LENGTH)) return undefined;
    (utm as Record<string, unknown>)[key] = field;
  }
  return utm;
}

function parseCommonEvent(item: unknown): EventInput | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const e = item as Record<string, unknown>;
  const customLinkId = canonicalUuid(e.customLinkId);
  const sessionId = e.sessionId === undefined ? undefined : canonicalUuid(e.sessionId);
  const occurredAt = typeof e.occurredAt === 'string' ? parseTimestamp(e.occurredAt) : null;
  const valid =
    text(e.eventId, 1, 128) &&
    (INGESTED_EVENT_TYPES as readonly unknown[]).includes(e.type) &&
    customLinkId !== null &&
    occurredAt !== null &&
    optionalText(e.slug, 64) &&
    optionalText(e.pageViewId, 128) &&
    optionalText(e.visitorId, 128) &&
    sessionId !== null &&
    optionalText(e.userAgent, 2000) &&
    (e.bot === undefined || typeof e.bot === 'boolean') &&
    (e.internal === undefined || typeof e.internal === 'boolean') &&
    (e.country === undefined || (typeof e.country === 'string' && COUNTRY.test(e.country))) &&
    (e.clientIp === undefined ||
      (typeof e.clientIp === 'string' && PLAIN_ADDRESS.test(e.clientIp) && isIP(e.clientIp) !== 0)) &&
    optionalText(e.referrer, REFERRER_MAX_LENGTH);
  const utm = e.utm === undefined ? undefined : commonUtm(e.utm);
  if (!valid || (e.utm !== undefined && utm === undefined)) return undefined;
  const event = new EventInput();
  for (const key of Object.keys(e))
    if (EVENT_FIELDS.has(key)) (event as unknown as Record<string, unknown>)[key] = e[key];
  return Object.assign(
    event,
    { customLinkId, occurredAt },
    sessionId === undefined ? {} : { sessionId },
    utm === undefined ? {} : { utm },
  );
}
