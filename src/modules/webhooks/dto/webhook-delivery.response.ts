import { ApiNextCursor } from '../../../common/pagination/pagination.response';
import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { ApiInteger } from '../../../common/http/api-integer';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/** One attempt to send a message to an endpoint. */
export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The webhook-id header: the same on every attempt of a message.' })
  messageId: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) eventType: string;
  @ApiInteger({ minimum: 1 }) attempt: number;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: string;
  @ApiInteger({ nullable: true }) responseStatus: number | null;
  @ApiInteger({ nullable: true }) durationMs: number | null;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Pending: when it is sent; failed: when the next attempt is due (null: none).',
  })
  nextAttemptAt: string | null;
}

export class WebhookDeliveryListResponse {
  @ApiProperty({ type: [WebhookDeliveryResponse] }) deliveries: WebhookDeliveryResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
  @ApiNextCursor() nextCursor: string | null;
}
