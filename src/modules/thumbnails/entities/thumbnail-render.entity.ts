import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** One thumbnail render of a link, within a job. */
@Entity('thumbnail_renders')
@ForeignKey('CustomLinkEntity', ['organizationId', 'customLinkId'], ['organizationId', 'id'], {
  name: 'thumbnail_renders_organization_id_custom_link_id_fkey',
  onDelete: 'CASCADE',
})
@Check(
  'thumbnail_renders_status_check',
  `status IN ('queued', 'processing', 'generated', 'fallback', 'failed', 'cancelled')`,
)
@Index('thumbnail_renders_job_idx', ['organizationId', 'jobId', 'status'])
// The reaper's sweep: unfinished renders only.
@Index('thumbnail_renders_unfinished_idx', ['leaseUntil'], { where: `status IN ('queued', 'processing')` })
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

  /** Who runs it and until when (JobLeases, docs/operations.md); null until a worker took it. */
  @Column('varchar', { name: 'lease_owner', length: 128, nullable: true })
  leaseOwner: string | null;

  @Column('timestamptz', { name: 'lease_until', nullable: true })
  leaseUntil: Date | null;
}
