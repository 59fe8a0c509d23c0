import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An engagement event, kept once per (organization, eventId) for deduplication and session lifecycles.
 * No foreign key to organizations: a trigger deletes an organization's events (migration EngagementRowsCascade).
 */
@Entity('link_events')
// A session's lifecycle (session detail) reads its events.
@Index('link_events_session_idx', ['organizationId', 'sessionId', 'occurredAt'], { where: 'session_id IS NOT NULL' })
// A link's event timeline, newest first (scanned backwards).
@Index('link_events_link_idx', ['organizationId', 'customLinkId', 'occurredAt', 'eventId'])
@Check('link_events_bot_reason_check', `bot_reason IN ('user_agent', 'prefetch', 'head_request', 'scanner')`)
export class LinkEventEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('varchar', { name: 'event_id', length: 128 })
  eventId: string;

  @Column('uuid', { name: 'custom_link_id' })
  customLinkId: string;

  @Column('varchar', { length: 32 })
  type: string;

  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt: Date;

  @Column('varchar', { name: 'page_view_id', length: 128, nullable: true })
  pageViewId: string | null;

  @Column('varchar', { name: 'visitor_id', length: 128, nullable: true })
  visitorId: string | null;

  @Column('uuid', { name: 'session_id', nullable: true })
  sessionId: string | null;

  @Column('boolean')
  bot: boolean;

  /** Why a bot event is one (rules/bot-detection.ts); null for humans and bot events stored before reasons were. */
  @Column('varchar', { name: 'bot_reason', length: 16, nullable: true })
  botReason: string | null;

  @Column('timestamptz', { name: 'received_at', default: () => 'now()' })
  receivedAt: Date;
}
