import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** A personalized link, with its engagement rollup (docs/api.md §6). */
@Entity('custom_links')
// ON DELETE SET NULL (campaign_id): deleting a campaign unfiles its links but keeps organization_id. TypeORM
// cannot declare the column list of SET NULL; its diff compares the action only, so 'SET NULL' matches.
@ForeignKey('CampaignEntity', ['organizationId', 'campaignId'], ['organizationId', 'id'], {
  name: 'custom_links_organization_id_campaign_id_fkey',
  onDelete: 'SET NULL',
})
// GET /l/{slug} finds a link before knowing its organization.
@Index('custom_links_slug_key', ['slug'], { unique: true })
// (organization_id, created_at DESC, id DESC): TypeORM cannot declare DESC key columns.
@Index('custom_links_created_idx', { synchronize: false })
// (organization_id, last_activity_at DESC NULLS LAST, id DESC): TypeORM cannot declare DESC or NULLS LAST.
@Index('custom_links_activity_idx', { synchronize: false })
@Index('custom_links_activity_asc_idx', ['organizationId', 'lastActivityAt', 'id'])
// (organization_id, campaign_id, created_at DESC, id DESC): TypeORM cannot declare DESC key columns.
@Index('custom_links_campaign_idx', { synchronize: false })
// (organization_id, stage, created_at DESC, id DESC): TypeORM cannot declare DESC key columns.
@Index('custom_links_stage_idx', { synchronize: false })
@Index('custom_links_external_id_idx', ['organizationId', 'externalId'], { where: 'external_id IS NOT NULL' })
// (organization_id, lower(email)): TypeORM cannot declare expression index keys.
@Index('custom_links_email_idx', { synchronize: false })
@Index('custom_links_job_idx', ['organizationId', 'jobId'])
// (organization_id, updated_at, id): updated_since lists (migration SyncUpdatedAt), declared there with the list's other indexes.
@Index('custom_links_updated_idx', { synchronize: false })
export class CustomLinkEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'custom_links_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { length: 32 })
  slug: string;

  @Column('varchar', { name: 'display_name', length: 255 })
  displayName: string;

  @Column('boolean', { default: true })
  active: boolean;

  @Column('varchar', { name: 'external_id', length: 255, nullable: true })
  externalId: string | null;

  @Column('varchar', { name: 'first_name', length: 255, nullable: true })
  firstName: string | null;

  @Column('varchar', { name: 'last_name', length: 255, nullable: true })
  lastName: string | null;

  @Column('varchar', { length: 255, nullable: true })
  email: string | null;

  @Column('varchar', { length: 50, nullable: true })
  phone: string | null;

  @Column('varchar', { length: 255, nullable: true })
  role: string | null;

  @Column('varchar', { length: 255, nullable: true })
  company: string | null;

  @Column('varchar', { length: 10000, nullable: true })
  context: string | null;

  @Column('varchar', { name: 'share_title', length: 255, nullable: true })
  shareTitle: string | null;

  @Column('varchar', { name: 'share_description', length: 500, nullable: true })
  shareDescription: string | null;

  @Column('varchar', { name: 'share_thumbnail_url', length: 2083, nullable: true })
  shareThumbnailUrl: string | null;

  @Column('varchar', { name: 'prospect_logo_url', length: 2083, nullable: true })
  prospectLogoUrl: string | null;

  @Column('varchar', { name: 'prospect_domain', length: 255, nullable: true })
  prospectDomain: string | null;

  @Column('uuid', { name: 'campaign_id', nullable: true })
  campaignId: string | null;

  @Column('uuid', { name: 'job_id', nullable: true })
  jobId: string | null;

  @Column('varchar', { name: 'thumbnail_status', length: 16 })
  thumbnailStatus: string;

  @Column('integer', { name: 'thumbnail_attempts', default: 0 })
  thumbnailAttempts: number;

  @Column('varchar', { name: 'thumbnail_error_code', length: 32, nullable: true })
  thumbnailErrorCode: string | null;

  @Column('varchar', { name: 'thumbnail_error_message', length: 500, nullable: true })
  thumbnailErrorMessage: string | null;

  @Column('uuid', { name: 'thumbnail_render_id', nullable: true })
  thumbnailRenderId: string | null;

  @Column('varchar', { length: 16, default: 'not_opened' })
  stage: string;

  @Column('timestamptz', { name: 'last_activity_at', nullable: true })
  lastActivityAt: Date | null;

  /**
   * What GET /custom-links?q=… matches (copied to custom_link_search, which indexes it): GENERATED ALWAYS … STORED, the
   * migration's expression. TypeORM reads a generated column's expression from its typeorm_metadata table,
   * which our migrations do not create; migration-check.ts fills a temporary one, so this expression is
   * compared with the database's as PostgreSQL parses both.
   */
  @Column({
    type: 'text',
    name: 'search_text',
    nullable: true,
    generatedType: 'STORED',
    asExpression: `lower(
          coalesce(display_name, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' ||
          coalesce(email, '') || ' ' || coalesce(company, '') || ' ' || coalesce(external_id, ''))`,
  })
  searchText: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;

  // Engagement rollup (Engagement1764200000000).

  @Column('boolean', { name: 'open_observed', default: false })
  openObserved: boolean;

  @Column('integer', { name: 'bot_open_count', default: 0 })
  botOpenCount: number;

  /** Bot opens by reason (LinkBotReasons1765500000000), kept with the events like the counters. */
  @Column('jsonb', { name: 'bot_opens', default: () => `'{}'` })
  botOpens: Record<string, number>;

  @Column('integer', { name: 'load_count', default: 0 })
  loadCount: number;

  @Column('integer', { name: 'page_view_count', default: 0 })
  pageViewCount: number;

  @Column('integer', { name: 'persistent_visitor_count', default: 0 })
  persistentVisitorCount: number;

  @Column('integer', { name: 'ephemeral_page_view_count', default: 0 })
  ephemeralPageViewCount: number;

  @Column('integer', { name: 'session_count', default: 0 })
  sessionCount: number;

  @Column('integer', { name: 'started_session_count', default: 0 })
  startedSessionCount: number;

  @Column('integer', { name: 'engaged_session_count', default: 0 })
  engagedSessionCount: number;

  @Column('timestamptz', { name: 'first_opened_at', nullable: true })
  firstOpenedAt: Date | null;

  @Column('timestamptz', { name: 'last_opened_at', nullable: true })
  lastOpenedAt: Date | null;

  @Column('timestamptz', { name: 'first_started_at', nullable: true })
  firstStartedAt: Date | null;

  @Column('timestamptz', { name: 'first_engaged_at', nullable: true })
  firstEngagedAt: Date | null;

  @Column('timestamptz', { name: 'first_lead_submitted_at', nullable: true })
  firstLeadSubmittedAt: Date | null;

  @Column('timestamptz', { name: 'first_meeting_clicked_at', nullable: true })
  firstMeetingClickedAt: Date | null;

  @Column('timestamptz', { name: 'first_meeting_booked_at', nullable: true })
  firstMeetingBookedAt: Date | null;

  @Column('varchar', { name: 'last_activity_type', length: 32, nullable: true })
  lastActivityType: string | null;

  @Column('varchar', { name: 'last_activity_event_id', length: 128, nullable: true })
  lastActivityEventId: string | null;
}
