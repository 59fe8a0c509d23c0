export const WEBHOOK_DELIVERIES_QUEUE = 'webhook-deliveries';
export const SEND_DELIVERY = 'send-delivery';

export interface SendDeliveryPayload {
  organizationId: string;
  deliveryId: string;
}
