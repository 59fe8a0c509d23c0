import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** An immutable playbook version, numbered from 1 per organization (docs/api.md §14.1). */
@Entity('agent_versions')
export class AgentVersionEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'agent_versions_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('integer')
  version: number;

  @Column('jsonb')
  sections: unknown;

  @Column('char', { name: 'sections_etag', length: 64 })
  sectionsEtag: string;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}
