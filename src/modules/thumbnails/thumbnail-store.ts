import type { EntityManager } from 'typeorm';

/**
 * Where rendered share cards live. PostgreSQL by default (PgThumbnailStore); an object store can
 * take its place by providing THUMBNAIL_STORE. `put` runs inside the render's transaction when the
 * store supports it, so a card and the link pointing at it commit together.
 */
export interface ThumbnailStore {
  put(card: { organizationId: string; linkId: string; hash: string; png: Buffer }, tx?: EntityManager): Promise<void>;
  get(linkId: string, hash: string): Promise<Buffer | null>;
}

export const THUMBNAIL_STORE = Symbol('THUMBNAIL_STORE');
