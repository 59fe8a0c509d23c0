import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsEnum,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { IsHttpUrl } from '../../../common/validation/http-url';
import { OptionalBoolean, OptionalObject, OptionalText } from '../../../common/validation/field-decorators';
import { IsUuidString } from '../../../common/validation/validators';
import { MAX_FILTER_IDS, WEBHOOK_EVENT_TYPES } from '../webhook-event-types';

const Url = (required: boolean) =>
  applyDecorators(
    (required ? ApiProperty : ApiPropertyOptional)({
      type: String,
      format: 'uri',
      maxLength: 2083,
      description: 'An absolute https URL on a public address, on a port the service allows (443 and 80 by default).',
    }),
    required ? IsDefined() : IsOptional(),
    IsString(),
    MaxLength(2083),
    IsHttpUrl(),
  );

const EventTypes = (required: boolean) =>
  applyDecorators(
    (required ? ApiProperty : ApiPropertyOptional)({
      type: String,
      isArray: true,
      enum: WEBHOOK_EVENT_TYPES,
      minItems: 1,
      maxItems: WEBHOOK_EVENT_TYPES.length,
    }),
    required ? IsDefined() : IsOptional(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(WEBHOOK_EVENT_TYPES.length),
    // An enum, not a literal: an unknown type is reported as pydantic's `enum` issue.
    IsEnum(Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [type, type])), { each: true }),
  );

const FilterIds = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_FILTER_IDS, nullable: true, description }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_FILTER_IDS),
    IsUuidString({ each: true }),
  );

/** Which links' lifecycle events (`custom_link.*`) an endpoint receives (docs/api.md §16.7). */
export class WebhookEndpointFilterInput {
  @FilterIds('Campaigns whose filed links have their events sent; repeats collapse.') campaignIds?: string[] | null;
  @FilterIds('Links whose events are sent; repeats collapse.') linkIds?: string[] | null;
}

/** POST /api/v1/webhook-endpoints. */
export class CreateWebhookEndpointRequest {
  @Url(true) url: string;
  @EventTypes(true) eventTypes: string[];
  @OptionalText(255) description?: string | null;
  @OptionalObject(
    () => WebhookEndpointFilterInput,
    'Limits the link events (custom_link.*) sent to these campaigns and links; null or absent: every link. Names at least one id.',
  )
  filter?: WebhookEndpointFilterInput | null;
}

/** PATCH /api/v1/webhook-endpoints/{endpoint_id}: any of the fields; null clears the description and the filter. */
export class UpdateWebhookEndpointRequest {
  @Url(false) url?: string;
  @EventTypes(false) eventTypes?: string[];
  @OptionalText(255) description?: string | null;
  @OptionalBoolean() active?: boolean | null;
  @OptionalObject(
    () => WebhookEndpointFilterInput,
    'Replaces the whole filter (absent: unchanged); null removes it. Names at least one id.',
  )
  filter?: WebhookEndpointFilterInput | null;
}
