import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookMessageEntity } from './webhook-message.entity';

/**
 * One attempt to send a message to an endpoint. A pending row is due at next_attempt_at; a failed
 * one names when the following attempt is due (null: none). Workers lease the row they send.
 */
@Entity('webhook_deliveries')
@ForeignKey(() => WebhookEndpointEntity, ['organizationId', 'endpointId'], ['organizationId', 'id'], {
  name: 'webhook_deliveries_endpoint_fkey',
  onDelete: 'CASCADE',
})
@ForeignKey(() => WebhookMessageEntity, ['organizationId', 'messageId'], ['organizationId', 'id'], {
  name: 'webhook_deliveries_message_fkey',
  onDelete: 'CASCADE',
})
@Check('webhook_deliveries_status_check', `status IN ('pending', 'succeeded', 'failed')`)
// (organization_id, endpoint_id, created_at DESC, id DESC): TypeORM cannot declare DESC key columns.
@Index('webhook_deliveries_list_idx', { synchronize: false })
// The dispatcher's sweep: pending rows only.
@Index('webhook_deliveries_due_idx', ['nextAttemptAt'], { where: `status = 'pending'` })
export class WebhookDeliveryEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'webhook_deliveries_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'endpoint_id' })
  endpointId: string;

  @Column('uuid', { name: 'message_id' })
  messageId: string;

  @Column('integer')
  attempt: number;

  @Column('varchar', { length: 16 })
  status: 'pending' | 'succeeded' | 'failed';

  @Column('integer', { name: 'response_status', nullable: true })
  responseStatus: number | null;

  @Column('integer', { name: 'duration_ms', nullable: true })
  durationMs: number | null;

  @Column('varchar', { length: 255, nullable: true })
  error: string | null;

  @Column('timestamptz', { name: 'next_attempt_at', nullable: true })
  nextAttemptAt: Date | null;

  @Column('varchar', { name: 'lease_owner', length: 128, nullable: true })
  leaseOwner: string | null;

  @Column('timestamptz', { name: 'lease_until', nullable: true })
  leaseUntil: Date | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}
