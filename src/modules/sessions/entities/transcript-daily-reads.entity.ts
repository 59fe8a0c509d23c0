import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * The transcript reads of an organization per UTC day (docs/api.md §8.2): the quota's count, in
 * PostgreSQL rather than Redis so that a Redis restart or failover cannot give an organization its
 * day's reads back. One row per organization and day; past days stay as a record of use.
 */
@Entity('transcript_daily_reads')
export class TranscriptDailyReadsEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'transcript_daily_reads_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  /** The UTC day. */
  @PrimaryColumn('date')
  day: string;

  @Column('integer')
  reads: number;
}
