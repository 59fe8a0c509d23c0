import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

@Entity('idempotency_records')
@Check('idempotency_records_state_check', `state IN ('in_flight', 'completed')`)
@Index('idempotency_records_expires_at_idx', ['expiresAt'])
export class IdempotencyRecordEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'idempotency_records_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('varchar', { length: 10 })
  method: string;

  @PrimaryColumn('varchar', { length: 255 })
  route: string;

  @PrimaryColumn('varchar', { name: 'idempotency_key', length: 255 })
  idempotencyKey: string;

  @Column('char', { length: 64 })
  fingerprint: string;

  @Column('varchar', { length: 16 })
  state: 'in_flight' | 'completed';

  @Column('smallint', { name: 'response_status', nullable: true })
  responseStatus: number | null;

  /** The answer's JSON text: jsonb cannot hold the U+0000 a 422 may echo. */
  @Column('text', { name: 'response_body', nullable: true })
  responseBody: string | null;

  @Column('jsonb', { name: 'response_headers', nullable: true })
  responseHeaders: Record<string, string> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;
}
