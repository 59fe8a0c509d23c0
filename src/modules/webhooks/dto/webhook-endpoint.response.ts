import { ApiNextCursor } from '../../../common/pagination/pagination.response';
import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { ApiInteger } from '../../../common/http/api-integer';

/** An endpoint's filter: canonical ids, each once, sorted. */
export class WebhookEndpointFilterResponse {
  @ApiProperty({ type: [String], format: 'uuid' }) campaignIds: string[];
  @ApiProperty({ type: [String], format: 'uuid' }) linkIds: string[];
}

/** A webhook endpoint as GET returns it: never its secret. */
export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uri' }) url: string;
  @ApiProperty({ type: String, isArray: true, enum: WEBHOOK_EVENT_TYPES }) eventTypes: string[];
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty() active: boolean;
  @ApiProperty({
    type: WebhookEndpointFilterResponse,
    nullable: true,
    description:
      'Link events (custom_link.*) are sent only about these links and the links filed in these campaigns; null: every link. Other events are not filtered.',
  })
  filter: WebhookEndpointFilterResponse | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** On creation and rotation only: the endpoint with its signing secret. */
export class WebhookEndpointWithSecretResponse extends WebhookEndpointResponse {
  @ApiProperty({
    pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
    description: 'Shown only here: whsec_ and the base64 of 32 random bytes.',
  })
  secret: string;
}

export class WebhookEndpointListResponse {
  @ApiProperty({ type: [WebhookEndpointResponse] }) webhookEndpoints: WebhookEndpointResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiNextCursor() nextCursor: string | null;
}
