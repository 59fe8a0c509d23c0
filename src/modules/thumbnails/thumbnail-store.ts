import type { EntityManager } from 'typeorm';

/** A stored card. */
export interface StoredCard {
  png: Buffer;
}

/**
 * Where rendered share cards live. PostgreSQL by default (PgThumbnailStore); an object store can
 * take its place by providing THUMBNAIL_STORE. `put` and `prune` run inside the render's
 * transaction when the store supports it, so a card, the removal of the cards it supersedes and the
 * link pointing at it commit together.
 */
export interface ThumbnailStore {
  put(card: { organizationId: string; linkId: string; hash: string; png: Buffer }, tx?: EntityManager): Promise<void>;
  /** Removes the link's cards except `keep` (every one when null). */
  prune(cards: { organizationId: string; linkId: string; keep: string | null }, tx?: EntityManager): Promise<void>;
  get(card: { organizationId: string; linkId: string; hash: string }): Promise<StoredCard | null>;
}

export const THUMBNAIL_STORE = Symbol('THUMBNAIL_STORE');
