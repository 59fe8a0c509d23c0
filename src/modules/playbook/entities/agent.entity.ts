import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * The one agent of an organization (docs/api.md §14.1): the staging and published production playbook
 * versions and the conversation tests. Its row is the lock that serialises applies and publishes.
 */
@Entity('agents')
export class AgentEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'agents_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @Column('integer', { name: 'staging_version', nullable: true })
  stagingVersion: number | null;

  @Column('integer', { name: 'production_version', nullable: true })
  productionVersion: number | null;

  @Column('jsonb', { name: 'conversation_tests', default: () => `'[]'` })
  conversationTests: unknown[];

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
