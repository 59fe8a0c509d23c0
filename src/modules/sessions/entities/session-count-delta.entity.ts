import { Entity, Index, PrimaryColumn } from 'typeorm';
import { SessionCountColumns } from './session-facet-columns';

/**
 * Signed changes to session_counts appended by the statement triggers on sessions, in the writing
 * transaction. No foreign key: deleting an organization cascades to its sessions, whose trigger still
 * appends deltas.
 *
 * Append-only rows without a primary key, and TypeORM requires primary columns: organization_id and
 * month are declared primary, and `synchronize: false` keeps TypeORM's own diff from adding a primary
 * key (src/database/migration-check.ts still compares everything else).
 */
@Entity('session_count_deltas', { synchronize: false })
@Index('session_count_deltas_org_idx', ['organizationId'])
export class SessionCountDeltaEntity extends SessionCountColumns {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;
}
