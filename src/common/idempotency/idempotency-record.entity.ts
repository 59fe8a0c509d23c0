import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity('idempotency_records')
export class IdempotencyRecordEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('varchar')
  method: string;

  @PrimaryColumn('varchar')
  route: string;

  @PrimaryColumn('varchar', { name: 'idempotency_key' })
  idempotencyKey: string;

  @Column('char', { length: 64 })
  fingerprint: string;

  @Column('varchar')
  state: 'in_flight' | 'completed';

  @Column('smallint', { name: 'response_status', nullable: true })
  responseStatus: number | null;

  @Column('jsonb', { name: 'response_body', nullable: true })
  responseBody: unknown;

  @Column('jsonb', { name: 'response_headers', nullable: true })
  responseHeaders: Record<string, string> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;
}
