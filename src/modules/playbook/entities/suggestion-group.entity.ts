import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A group of suggested playbook changes (docs/api.md §14). */
@Entity('suggestion_groups')
// (organization_id, created_at DESC, id DESC): TypeORM cannot declare DESC key columns.
@Index('suggestion_groups_list_idx', { synchronize: false })
export class SuggestionGroupEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'suggestion_groups_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('integer', { name: 'generation_revision', default: 0 })
  generationRevision: number;

  @Column('varchar', { length: 16, default: 'open' })
  status: string;

  @Column('jsonb')
  changes: unknown;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
