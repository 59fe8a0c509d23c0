import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** Publishing a playbook version to production (docs/api.md §14). */
@Entity('publish_jobs')
@Check('publish_jobs_status_check', `status IN ('queued', 'running', 'succeeded', 'failed')`)
// The reaper's sweep: unfinished publish jobs only.
@Index('publish_jobs_unfinished_idx', ['leaseUntil'], { where: `status IN ('queued', 'running')` })
export class PublishJobEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'publish_jobs_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { length: 16 })
  status: 'queued' | 'running' | 'succeeded' | 'failed';

  @Column('integer', { name: 'requested_version' })
  requestedVersion: number;

  @Column('varchar', { name: 'error_code', length: 64, nullable: true })
  errorCode: string | null;

  @Column('varchar', { name: 'error_message', length: 1000, nullable: true })
  errorMessage: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  /** Who runs it and until when (JobLeases, docs/operations.md); null until a worker took it. */
  @Column('varchar', { name: 'lease_owner', length: 128, nullable: true })
  leaseOwner: string | null;

  @Column('timestamptz', { name: 'lease_until', nullable: true })
  leaseUntil: Date | null;
}
