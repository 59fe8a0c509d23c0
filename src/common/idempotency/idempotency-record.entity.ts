import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export type IdempotencyState = 'in_flight' | 'committed' | 'completed';

@Entity('idempotency_records')
// committed: the mutation stored its answer in its transaction; its request has not finished yet.
@Check('idempotency_records_state_check', `state IN ('in_flight', 'committed', 'completed')`)
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
  state: IdempotencyState;

  /** The request that holds (or completed) the key; only it may complete or release the record. */
  @Column('uuid', { name: 'lease_token' })
  leaseToken: string;

  /** An in-flight claim whose owner stopped renewing it by then may be taken over. */
  @Column('timestamptz', { name: 'lease_expires_at' })
  leaseExpiresAt: Date;

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
