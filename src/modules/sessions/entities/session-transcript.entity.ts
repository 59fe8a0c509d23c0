import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { SessionEntity } from './session.entity';

@Entity('session_transcripts')
@ForeignKey(() => SessionEntity, ['organizationId', 'sessionId'], ['organizationId', 'id'], {
  name: 'session_transcripts_organization_id_session_id_fkey',
  onDelete: 'CASCADE',
})
export class SessionTranscriptEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('uuid', { name: 'session_id' })
  sessionId: string;

  @Column('jsonb')
  entries: unknown[];

  @Column('integer')
  total: number;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
