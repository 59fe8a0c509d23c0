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
import { OptionalBoolean, OptionalText } from '../../../common/validation/field-decorators';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';

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

/** POST /api/v1/webhook-endpoints. */
export class CreateWebhookEndpointRequest {
  @Url(true) url: string;
  @EventTypes(true) eventTypes: string[];
  @OptionalText(255) description?: string | null;
}

/** PATCH /api/v1/webhook-endpoints/{endpoint_id}: any of the fields; null clears the description. */
export class UpdateWebhookEndpointRequest {
  @Url(false) url?: string;
  @EventTypes(false) eventTypes?: string[];
  @OptionalText(255) description?: string | null;
  @OptionalBoolean() active?: boolean | null;
}
