import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** One thumbnail render of a link, within a job. */
@Entity('thumbnail_renders')
@ForeignKey('CustomLinkEntity', ['organizationId', 'customLinkId'], ['organizationId', 'id'], {
  name: 'thumbnail_renders_organization_id_custom_link_id_fkey',
  onDelete: 'CASCADE',
})
@Check('thumbnail_renders_status_check', `status IN ('queued', 'processing', 'generated', 'fallback', 'failed', 'cancelled')`)
@Index('thumbnail_renders_job_idx', ['organizationId', 'jobId', 'status'])
export class ThumbnailRenderEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'custom_link_id' })
  customLinkId: string;

  @Column('uuid', { name: 'job_id' })
  jobId: string;

  @Column('varchar', { length: 16 })
  status: 'queued' | 'processing' | 'generated' | 'fallback' | 'failed' | 'cancelled';

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
