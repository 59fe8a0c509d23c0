import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

@Entity('campaigns')
// (organization_id, lower(name)): names are unique per organization regardless of case; TypeORM cannot declare expression index keys.
@Index('campaigns_name_key', { synchronize: false })
// (organization_id, created_at DESC, id DESC): TypeORM cannot declare DESC key columns.
@Index('campaigns_created_idx', { synchronize: false })
export class CampaignEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'campaigns_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { length: 255 })
  name: string;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
