import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * A campaign's engagement figures (docs/api.md §2.10), kept by statement triggers on custom_links.
 * Counters are bigint, read as strings. A campaign without links has no row.
 */
@Entity('campaign_engagement')
@ForeignKey('CampaignEntity', ['organizationId', 'campaignId'], ['organizationId', 'id'], {
  name: 'campaign_engagement_organization_id_campaign_id_fkey',
  onDelete: 'CASCADE',
})
export class CampaignEngagementEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('uuid', { name: 'campaign_id' })
  campaignId: string;

  @Column('bigint', { default: 0 })
  links: string;

  @Column('bigint', { name: 'active_links', default: 0 })
  activeLinks: string;

  @Column('bigint', { default: 0 })
  opened: string;

  @Column('bigint', { default: 0 })
  started: string;

  @Column('bigint', { default: 0 })
  engaged: string;

  @Column('bigint', { name: 'lead_submitted', default: 0 })
  leadSubmitted: string;

  @Column('bigint', { name: 'meeting_clicked', default: 0 })
  meetingClicked: string;

  @Column('bigint', { name: 'meeting_booked', default: 0 })
  meetingBooked: string;

  @Column('bigint', { name: 'bot_scanned_only', default: 0 })
  botScannedOnly: string;

  @Column('bigint', { name: 'page_views', default: 0 })
  pageViews: string;

  @Column('bigint', { default: 0 })
  loads: string;

  @Column('bigint', { name: 'persistent_visitors', default: 0 })
  persistentVisitors: string;

  @Column('bigint', { name: 'ephemeral_page_views', default: 0 })
  ephemeralPageViews: string;

  @Column('bigint', { default: 0 })
  sessions: string;

  @Column('bigint', { name: 'started_sessions', default: 0 })
  startedSessions: string;

  @Column('bigint', { name: 'engaged_sessions', default: 0 })
  engagedSessions: string;

  @Column('timestamptz', { name: 'first_opened_at', nullable: true })
  firstOpenedAt: Date | null;

  @Column('timestamptz', { name: 'last_opened_at', nullable: true })
  lastOpenedAt: Date | null;

  @Column('timestamptz', { name: 'last_activity_at', nullable: true })
  lastActivityAt: Date | null;
}
