import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * What the link list's `q` and `company` filters match, apart from custom_links so that its trigram
 * indexes are not rewritten with every rollup merge; triggers on custom_links keep it (migration
 * LinkSearchApart).
 */
@Entity('custom_link_search')
@ForeignKey('CustomLinkEntity', ['organizationId', 'customLinkId'], ['organizationId', 'id'], {
  name: 'custom_link_search_organization_id_custom_link_id_fkey',
  onDelete: 'CASCADE',
})
// USING gin (search_text gin_trgm_ops): TypeORM cannot declare an operator class.
@Index('custom_link_search_text_trgm_idx', { synchronize: false })
// USING gin (company_key gin_trgm_ops): TypeORM cannot declare an operator class.
@Index('custom_link_search_company_trgm_idx', { synchronize: false })
export class CustomLinkSearchEntity {
  @PrimaryColumn('uuid', { name: 'organization_id' })
  organizationId: string;

  @PrimaryColumn('uuid', { name: 'custom_link_id' })
  customLinkId: string;

  /** custom_links.search_text. */
  @Column('text', { name: 'search_text', nullable: true })
  searchText: string | null;

  /** lower(custom_links.company). */
  @Column('text', { name: 'company_key', nullable: true })
  companyKey: string | null;
}
