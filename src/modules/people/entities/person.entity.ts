import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A person rolled up from the visible sessions of one email key. */
@Entity('people')
@Index('people_email_key', ['organizationId', 'emailKey'], { unique: true })
// (organization_id, last_seen_at DESC, id DESC) INCLUDE (buying_intent, qualification_status):
// TypeORM cannot declare DESC key columns or INCLUDE columns.
@Index('people_list_idx', { synchronize: false })
// USING gin (email_key gin_trgm_ops): TypeORM cannot declare an operator class.
@Index('people_email_trgm_idx', { synchronize: false })
// Account rollups read the people of one domain.
@Index('people_account_idx', ['organizationId', 'accountDomain'], { where: 'account_domain IS NOT NULL' })
// (organization_id, updated_at, id): updated_since lists (migration SyncUpdatedAt), declared there with the list's other indexes.
@Index('people_updated_idx', { synchronize: false })
export class PersonEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'people_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { name: 'email_key', length: 320 })
  emailKey: string;

  @Column('varchar', { length: 255, nullable: true })
  name: string | null;

  @Column('varchar', { length: 255, nullable: true })
  phone: string | null;

  @Column('varchar', { length: 255, nullable: true })
  business: string | null;

  @Column('integer', { name: 'total_sessions' })
  totalSessions: number;

  @Column('integer', { name: 'booked_sessions' })
  bookedSessions: number;

  @Column('timestamptz', { name: 'first_seen_at' })
  firstSeenAt: Date;

  @Column('timestamptz', { name: 'last_seen_at' })
  lastSeenAt: Date;

  /** bigint: read as a string. */
  @Column('bigint', { name: 'total_time_spent_seconds' })
  totalTimeSpentSeconds: string;

  @Column('varchar', { name: 'first_source', length: 255, nullable: true })
  firstSource: string | null;

  @Column('varchar', { name: 'last_source', length: 255, nullable: true })
  lastSource: string | null;

  @Column('varchar', { name: 'last_location', length: 800, nullable: true })
  lastLocation: string | null;

  @Column('varchar', { name: 'qualification_status', length: 16, nullable: true })
  qualificationStatus: string | null;

  @Column('text', { name: 'qualification_rationale', nullable: true })
  qualificationRationale: string | null;

  @Column('varchar', { name: 'qualification_source', length: 16, nullable: true })
  qualificationSource: string | null;

  @Column('timestamptz', { name: 'qualification_assessed_at', nullable: true })
  qualificationAssessedAt: Date | null;

  @Column('varchar', { name: 'qualification_rubric_version_id', length: 255, nullable: true })
  qualificationRubricVersionId: string | null;

  @Column('varchar', { name: 'buying_intent', length: 16, nullable: true })
  buyingIntent: string | null;

  @Column('varchar', { name: 'account_domain', length: 255, nullable: true })
  accountDomain: string | null;

  @Column('text', { name: 'summary_markdown', nullable: true })
  summaryMarkdown: string | null;

  @Column('double precision', { name: 'intent_score' })
  intentScore: number;

  @Column('varchar', { name: 'overall_intent', length: 16 })
  overallIntent: string;

  @Column('timestamptz', { name: 'intent_calculated_at' })
  intentCalculatedAt: Date;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
