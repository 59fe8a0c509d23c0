import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * The outbox: one event, written in the transaction of the change that caused it. `body` is the
 * exact JSON every attempt and replay sends; `id` is its webhook-id.
 */
@Entity('webhook_messages')
export class WebhookMessageEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'webhook_messages_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { name: 'event_type', length: 64 })
  eventType: string;

  @Column('text')
  body: string;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}
