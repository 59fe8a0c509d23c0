import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** A stored thumbnail PNG of a link, by content hash. */
@Entity('thumbnail_images')
@ForeignKey('CustomLinkEntity', ['organizationId', 'customLinkId'], ['organizationId', 'id'], {
  name: 'thumbnail_images_organization_id_custom_link_id_fkey',
  onDelete: 'CASCADE',
})
export class ThumbnailImageEntity {
  @PrimaryColumn('uuid', { name: 'custom_link_id' })
  customLinkId: string;

  @PrimaryColumn('char', { length: 64 })
  hash: string;

  @Column('uuid', { name: 'organization_id' })
  organizationId: string;

  @Column('bytea')
  png: Buffer;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}
