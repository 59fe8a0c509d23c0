import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A session seen on a link, with the earliest time of each kind. */
@Entity('link_sessions')
// (organization_id, custom_link_id, first_seen_at DESC, session_id DESC): TypeORM cannot declare DESC key columns.
@Index('link_sessions_list_idx', { synchronize: false })
@Index('link_sessions_session_idx', ['organizationId', 'sessionId'])
export class LinkSessionEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('uuid', { name: 'custom_link_id' })
  customLinkId: string;

  @PrimaryColumn('uuid', { name: 'session_id' })
  sessionId: string;

  @Column('timestamptz', { name: 'opened_at', nullable: true })
  openedAt: Date | null;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt: Date | null;

  @Column('timestamptz', { name: 'engaged_at', nullable: true })
  engagedAt: Date | null;

  @Column('timestamptz', { name: 'ended_at', nullable: true })
  endedAt: Date | null;

  @Column('timestamptz', { name: 'first_seen_at' })
  firstSeenAt: Date;
}
