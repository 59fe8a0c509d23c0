import { Entity, ForeignKey, PrimaryColumn, Unique } from 'typeorm';
import { SessionCountColumns } from './session-facet-columns';

/**
 * Visible sessions counted per organization, UTC month and enum filter values; triggers append to
 * session_count_deltas and compact_session_counts() folds those in.
 *
 * The table has no primary key, only the unique constraint session_counts_key (whose nullable columns
 * TypeORM cannot make primary), and TypeORM requires primary columns: its non-null columns
 * organization_id and month are declared primary, and `synchronize: false` keeps TypeORM's own diff from
 * adding a primary key (src/database/migration-check.ts still compares everything else).
 */
@Entity('session_counts', { synchronize: false })
// UNIQUE NULLS NOT DISTINCT: TypeORM cannot declare NULLS NOT DISTINCT; its diff compares unique constraints by name, so this matches.
@Unique('session_counts_key', [
  'organizationId',
  'month',
  'effectiveQualificationStatus',
  'buyingIntent',
  'bookedStatus',
])
export class SessionCountEntity extends SessionCountColumns {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  @ForeignKey('OrganizationEntity', { name: 'session_counts_organization_id_fkey', onDelete: 'CASCADE' })
  organizationId: string;
}
