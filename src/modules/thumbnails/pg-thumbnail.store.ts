import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { StoredCard, ThumbnailStore } from './thumbnail-store';
import { ThumbnailsRepository } from './thumbnails.repository';

/** Cards as rows of thumbnail_images, keyed by organization, link and content hash. */
@Injectable()
export class PgThumbnailStore implements ThumbnailStore {
  constructor(private readonly thumbnails: ThumbnailsRepository) {}

  async put(
    card: { organizationId: string; linkId: string; hash: string; png: Buffer },
    tx?: EntityManager,
  ): Promise<void> {
    await this.thumbnails.storeImage(card.organizationId, card.linkId, card.hash, card.png, tx);
  }

  async prune(
    cards: { organizationId: string; linkId: string; keep: string | null },
    tx?: EntityManager,
  ): Promise<void> {
    await this.thumbnails.deleteImages(cards.organizationId, cards.linkId, cards.keep, tx);
  }

  get(card: { organizationId: string; linkId: string; hash: string }): Promise<StoredCard | null> {
    return this.thumbnails.findImage(card.organizationId, card.linkId, card.hash);
  }
}
