import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { SessionFacetColumns } from './session-facet-columns';

/** A narrow copy of the visible sessions that have an email, kept by triggers on sessions (the email search). */
@Entity('session_emails')
// USING gin (session_email_grams(organization_id, email_key)): TypeORM cannot declare an expression index.
@Index('session_emails_grams_idx', { synchronize: false })
// (organization_id, start_time, id) INCLUDE (email_key, effective_qualification_status, buying_intent, booked_status):
// TypeORM cannot declare INCLUDE columns.
@Index('session_emails_list_idx', { synchronize: false })
export class SessionEmailEntity extends SessionFacetColumns {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'session_emails_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('timestamptz', { name: 'start_time' })
  startTime: Date;

  /** Has SET STATISTICS 2000 (planner statistics, which TypeORM neither reads nor declares). */
  @Column('varchar', { name: 'email_key', length: 320 })
  emailKey: string;
}
