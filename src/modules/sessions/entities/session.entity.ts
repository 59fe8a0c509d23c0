import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

import { visibleSession } from '../visible-session';

const VISIBLE = visibleSession();

@Entity('sessions')
@Check('sessions_environment_check', `environment IN ('production', 'staging')`)
@Check('sessions_analysis_status_check', `analysis_status IN ('pending', 'analyzed')`)
// A session id is the pipeline's idempotency key: it can belong to one organization only.
@Index('sessions_id_key', ['id'], { unique: true })
// (organization_id, start_time, id) INCLUDE (effective_qualification_status, buying_intent, booked_status) WHERE visible:
// TypeORM cannot declare INCLUDE columns.
@Index('sessions_list_idx', { synchronize: false })
// Person rollups read a person's visible sessions by email key.
@Index('sessions_person_key_idx', ['organizationId', 'emailKey'], { where: `${VISIBLE} AND email_key IS NOT NULL` })
// (organization_id, updated_at, id): updated_since lists (migration SyncUpdatedAt), declared there with the list's other indexes.
@Index('sessions_updated_idx', { synchronize: false })
export class SessionEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'sessions_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { length: 16 })
  environment: 'production' | 'staging';

  @Column('varchar', { name: 'analysis_status', length: 16 })
  analysisStatus: 'pending' | 'analyzed';

  @Column('varchar', { name: 'display_id', length: 255, nullable: true })
  displayId: string | null;

  @Column('timestamptz', { name: 'start_time' })
  startTime: Date;

  @Column('timestamptz', { name: 'end_time', nullable: true })
  endTime: Date | null;

  @Column('varchar', { name: 'session_type', length: 255, nullable: true })
  sessionType: string | null;

  @Column('varchar', { length: 320, nullable: true })
  email: string | null;

  @Column('varchar', { name: 'email_key', length: 320, nullable: true })
  emailKey: string | null;

  @Column('varchar', { length: 255, nullable: true })
  name: string | null;

  @Column('varchar', { length: 255, nullable: true })
  business: string | null;

  @Column('varchar', { length: 255, nullable: true })
  phone: string | null;

  @Column('uuid', { name: 'person_id', nullable: true })
  personId: string | null;

  @Column('varchar', { name: 'qualification_status', length: 16, nullable: true })
  qualificationStatus: string | null;

  @Column('varchar', { name: 'effective_qualification_status', length: 16, nullable: true })
  effectiveQualificationStatus: string | null;

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

  @Column('varchar', { name: 'booked_status', length: 16, nullable: true })
  bookedStatus: string | null;

  @Column('varchar', { name: 'session_status', length: 255, nullable: true })
  sessionStatus: string | null;

  @Column('varchar', { length: 255, nullable: true })
  sentiment: string | null;

  @Column('varchar', { name: 'engagement_level', length: 255, nullable: true })
  engagementLevel: string | null;

  @Column('varchar', { name: 'primary_intent', length: 255, nullable: true })
  primaryIntent: string | null;

  @Column('text', { name: 'summary_markdown', nullable: true })
  summaryMarkdown: string | null;

  @Column('varchar', { name: 'utm_source', length: 255, nullable: true })
  utmSource: string | null;

  @Column('varchar', { length: 255, nullable: true })
  device: string | null;

  @Column('varchar', { name: 'geo_country', length: 255, nullable: true })
  geoCountry: string | null;

  @Column('jsonb')
  tracking: Record<string, unknown>;

  @Column('jsonb')
  details: Record<string, unknown>;

  @Column('uuid', { name: 'custom_link_id', nullable: true })
  customLinkId: string | null;

  @Column('uuid', { name: 'custom_link_campaign_id', nullable: true })
  customLinkCampaignId: string | null;

  @Column('char', { length: 64 })
  fingerprint: string;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
