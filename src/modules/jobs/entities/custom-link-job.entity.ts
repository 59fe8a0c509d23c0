import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A Custom Link creation or thumbnail job, with one custom_link_job_items row per requested item. */
@Entity('custom_link_jobs')
@Check('custom_link_jobs_type_check', `type IN ('create', 'thumbnail')`)
@Check(
  'custom_link_jobs_status_check',
  `status IN ('queued', 'processing', 'completed', 'completed_with_errors', 'cancelled', 'failed')`,
)
// (organization_id, created_at DESC, id DESC): TypeORM cannot declare DESC key columns.
@Index('custom_link_jobs_list_idx', { synchronize: false })
// (organization_id, campaign_id, created_at DESC, id DESC): TypeORM cannot declare DESC key columns.
@Index('custom_link_jobs_campaign_idx', { synchronize: false })
// The reaper's sweep: unfinished jobs only.
@Index('custom_link_jobs_unfinished_idx', ['leaseUntil'], { where: `status IN ('queued', 'processing')` })
export class CustomLinkJobEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'custom_link_jobs_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { length: 16 })
  type: 'create' | 'thumbnail';

  @Column('varchar', { length: 24 })
  status: 'queued' | 'processing' | 'completed' | 'completed_with_errors' | 'cancelled' | 'failed';

  @Column('integer', { name: 'total_items' })
  totalItems: number;

  @Column('uuid', { name: 'campaign_id', nullable: true })
  campaignId: string | null;

  @Column('varchar', { name: 'campaign_name', length: 255, nullable: true })
  campaignName: string | null;

  @Column('uuid', { name: 'parent_job_id', nullable: true })
  parentJobId: string | null;

  @Column('boolean', { name: 'cancel_requested', default: false })
  cancelRequested: boolean;

  @Column('integer', { name: 'render_units', default: 0 })
  renderUnits: number;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt: Date | null;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

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
