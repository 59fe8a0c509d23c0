import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

@Entity('api_keys')
// Authentication looks a key up by its hash before the organization is known.
@Index('api_keys_key_hash_key', ['keyHash'], { unique: true })
@Index('api_keys_id_key', ['id'], { unique: true })
export class ApiKeyEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'api_keys_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;

  @PrimaryColumn('uuid')
  id: string;

  @Column('varchar', { length: 255, nullable: true })
  name: string | null;

  /** The first characters of the key, kept to recognise it; the key itself is never stored. */
  @Column('varchar', { length: 16 })
  prefix: string;

  @Column('char', { name: 'key_hash', length: 64 })
  keyHash: string;

  @Column('text', { array: true })
  scopes: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
