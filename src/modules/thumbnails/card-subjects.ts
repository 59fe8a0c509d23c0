import type { EntityManager } from 'typeorm';
import { definePort } from '../../common/wiring/port';
import type { ThumbnailError } from './thumbnail-errors';

/** What a share card shows, as the subject's owner keeps it. */
export interface CardSubject {
  id: string;
  name: string;
  company: string | null;
  logoUrl: string | null;
}

export interface RenderOutcome {
  status: 'generated' | 'fallback' | 'failed';
  /** The URL of the card this render stored; null when it stored none (the subject keeps its card). */
  newCardUrl: string | null;
  /** A CONTRACT code with its fixed message (thumbnail-errors.ts), never a reason from upstream. */
  error: ThumbnailError | null;
}

/**
 * The things share cards are drawn for (Custom Links), as their owning module exposes them: it
 * implements the port (it depends on this module, not the reverse). A subject waits for one render
 * at a time: a newer render supersedes the one it waited for. The owner points its subject at a
 * render it queues, or marks it cancelled, itself.
 */
export interface CardSubjects {
  /** The subject as its render starts, marked processing if it still waits for that render; null when it is gone. */
  startRender(organizationId: string, subjectId: string, renderId: string): Promise<CardSubject | null>;
  /**
   * Inside the render's transaction: records the outcome if the subject still waits for that render.
   * Returns how many renders recorded an outcome on the subject, this one included (1: its first);
   * null when the subject waits for another.
   */
  recordOutcome(
    tx: EntityManager,
    organizationId: string,
    subjectId: string,
    renderId: string,
    outcome: RenderOutcome,
  ): Promise<number | null>;
  /** The organization of a subject known by its id alone (the public card route); null when there is none. */
  organizationOf(subjectId: string): Promise<string | null>;
  /** Whether the subject's card may be served on the public route (outside any transaction). */
  isPublic(organizationId: string, subjectId: string): Promise<boolean>;
}

export const CARD_SUBJECTS = definePort<CardSubjects>('card subjects');
