import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A company rolled up from the people of one account domain. */
@Entity('accounts')
@Index('accounts_domain_key', ['organizationId', 'accountDomain'], { unique: true })
// (organization_id, updated_at, id): updated_since lists (migration SyncUpdatedAt), declared there with the list's other indexes.
@Index('accounts_updated_idx', { synchronize: false })
// (organization_id, last_seen_at DESC, id DESC): the account list; TypeORM cannot declare DESC key columns.
@Index('accounts_list_idx', { synchronize: false })
export class AccountEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'accounts_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { name: 'account_domain', length: 255 })
  accountDomain: string;

  @Column('varchar', { name: 'company_name', length: 255, nullable: true })
  companyName: string | null;

  @Column('integer', { name: 'total_users' })
  totalUsers: number;

  @Column('integer', { name: 'total_sessions' })
  totalSessions: number;

  @Column('integer', { name: 'booked_sessions' })
  bookedSessions: number;

  @Column('integer', { name: 'high_intent_users' })
  highIntentUsers: number;

  @Column('integer', { name: 'qualified_users' })
  qualifiedUsers: number;

  /** bigint: read as a string. */
  @Column('bigint', { name: 'total_time_spent_seconds' })
  totalTimeSpentSeconds: string;

  @Column('timestamptz', { name: 'last_seen_at' })
  lastSeenAt: Date;

  @Column('text', { name: 'summary_markdown', nullable: true })
  summaryMarkdown: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
