import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** An export of a filtered list: its file is the export_chunks of `run_id`. */
@Entity('exports')
@Check('exports_status_check', `status IN ('queued', 'processing', 'completed', 'failed')`)
@Check('exports_format_check', `format IN ('csv', 'ndjson')`)
// The reaper's sweep: unfinished rows only.
@Index('exports_unfinished_idx', ['createdAt'], { where: `status IN ('queued', 'processing')` })
// The expiry sweep.
@Index('exports_expiry_idx', ['expiresAt'], { where: `expires_at IS NOT NULL` })
export class ExportEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'exports_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { length: 32 })
  resource: string;

  @Column('varchar', { length: 8 })
  format: string;

  @Column('jsonb', { default: () => `'{}'` })
  filters: Record<string, string>;

  @Column('varchar', { length: 16, default: 'queued' })
  status: string;

  @Column('integer', { name: 'row_count', nullable: true })
  rowCount: number | null;

  @Column('uuid', { name: 'run_id', nullable: true })
  runId: string | null;

  @Column('varchar', { name: 'lease_owner', length: 128, nullable: true })
  leaseOwner: string | null;

  @Column('timestamptz', { name: 'lease_until', nullable: true })
  leaseUntil: Date | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt: Date | null;
}
