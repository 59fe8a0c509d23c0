import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { CustomLinkJobEntity } from './custom-link-job.entity';

/**
 * One requested item of a job. It carries the id of the link it creates, assigned at request time, so
 * a job resumed after a crash can only ever create that link once.
 */
@Entity('custom_link_job_items')
@ForeignKey(() => CustomLinkJobEntity, ['organizationId', 'jobId'], ['organizationId', 'id'], {
  name: 'custom_link_job_items_organization_id_job_id_fkey',
  onDelete: 'CASCADE',
})
@Check('custom_link_job_items_status_check', `status IN ('queued', 'created', 'failed', 'cancelled')`)
@Index('custom_link_job_items_queued_idx', ['organizationId', 'jobId', 'index'], { where: `status = 'queued'` })
// An item is re-run by at most one retry, across instances (docs/api.md §12.5).
@Index('custom_link_job_items_retry_of_key', ['organizationId', 'retryOfJobId', 'retryOfIndex'], {
  unique: true,
  where: 'retry_of_job_id IS NOT NULL',
})
export class CustomLinkJobItemEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('uuid', { name: 'job_id' })
  jobId: string;

  @PrimaryColumn('integer')
  index: number;

  @Column('varchar', { length: 16 })
  status: 'queued' | 'created' | 'failed' | 'cancelled';

  @Column('uuid', { name: 'custom_link_id' })
  customLinkId: string;

  @Column('varchar', { name: 'external_id', length: 255, nullable: true })
  externalId: string | null;

  @Column('jsonb')
  input: Record<string, unknown>;

  @Column('varchar', { name: 'error_code', length: 32, nullable: true })
  errorCode: string | null;

  @Column('varchar', { name: 'error_message', length: 500, nullable: true })
  errorMessage: string | null;

  /** On a retry job's item: the parent job and index of the item it re-runs. */
  @Column('uuid', { name: 'retry_of_job_id', nullable: true })
  retryOfJobId: string | null;

  @Column('integer', { name: 'retry_of_index', nullable: true })
  retryOfIndex: number | null;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
