import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** Where an organization wants its events sent (issue 20 point 1), with its signing secrets. */
@Entity('webhook_endpoints')
// (organization_id, created_at DESC, id DESC): TypeORM cannot declare DESC key columns.
@Index('webhook_endpoints_list_idx', { synchronize: false })
export class WebhookEndpointEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'webhook_endpoints_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { length: 2083 })
  url: string;

  @Column('text', { name: 'event_types', array: true })
  eventTypes: string[];

  @Column('varchar', { length: 255, nullable: true })
  description: string | null;

  @Column('boolean', { default: true })
  active: boolean;

  /** whsec_<base64 of 32 bytes>; shown only on creation and rotation. */
  @Column('varchar', { length: 64 })
  secret: string;

  /** The secret a rotation replaced, still signing beside the new one until previous_secret_until. */
  @Column('varchar', { name: 'previous_secret', length: 64, nullable: true })
  previousSecret: string | null;

  @Column('timestamptz', { name: 'previous_secret_until', nullable: true })
  previousSecretUntil: Date | null;

  /** Since when every attempt to it failed (null after a success); five days of it deactivate the endpoint. */
  @Column('timestamptz', { name: 'failing_since', nullable: true })
  failingSince: Date | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
