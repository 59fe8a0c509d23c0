import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** Publishing a playbook version to production (docs/api.md §14). */
@Entity('publish_jobs')
@Check('publish_jobs_status_check', `status IN ('queued', 'running', 'succeeded', 'failed')`)
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
}
