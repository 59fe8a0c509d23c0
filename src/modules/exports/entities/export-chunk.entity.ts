import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { ExportEntity } from './export.entity';

/** About 1 MiB of an export's gzip file, in order (`seq`) within the run that wrote it. */
@Entity('export_chunks')
@ForeignKey(() => ExportEntity, ['organizationId', 'exportId'], ['organizationId', 'id'], {
  name: 'export_chunks_export_fkey',
  onDelete: 'CASCADE',
})
export class ExportChunkEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('uuid', { name: 'export_id' })
  exportId: string;

  @PrimaryColumn('uuid', { name: 'run_id' })
  runId: string;

  @PrimaryColumn('integer')
  seq: number;

  @Column('bytea')
  data: Buffer;
}
