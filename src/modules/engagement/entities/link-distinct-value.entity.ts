import { Entity, PrimaryColumn } from 'typeorm';

/** One row per distinct value (page view, visitor, session) seen on a link: its insert tells whether the value is new. */
@Entity('link_distinct_values')
export class LinkDistinctValueEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('uuid', { name: 'custom_link_id' })
  customLinkId: string;

  @PrimaryColumn('varchar', { length: 32 })
  kind: string;

  @PrimaryColumn('varchar', { length: 128 })
  value: string;
}
