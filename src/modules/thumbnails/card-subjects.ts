import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Registration } from '../../common/registry/registration';
import type { ThumbnailError } from './thumbnail-errors';

/** What a share card shows and where its render stands, as the subject's owner keeps it. */
export interface CardSubject {
  id: string;
  /** The render the subject currently waits for; an older render is superseded. */
  renderId: string | null;
  attempts: number;
  shareThumbnailUrl: string | null;
  name: string;
  company: string | null;
  logoUrl: string | null;
}

export interface RenderOutcome {
  status: 'generated' | 'fallback' | 'failed';
  shareThumbnailUrl: string | null;
  attempts: number;
  /** A CONTRACT code with its fixed message (thumbnail-errors.ts), never a reason from upstream. */
  error: ThumbnailError | null;
}

/**
 * The things share cards are drawn for (Custom Links), as their owning module exposes them. The
 * owner registers an implementation at start (it depends on this module, not the reverse); every
 * call runs inside the render's transaction.
 */
export interface CardSubjects {
  markQueued(tx: EntityManager, organizationId: string, subjectId: string, renderId: string): Promise<void>;
  markCancelled(tx: EntityManager, organizationId: string, subjectIds: string[]): Promise<void>;
  /** The subject locked for the rest of the transaction, or null when it is gone. */
  lock(tx: EntityManager, organizationId: string, subjectId: string): Promise<CardSubject | null>;
  markProcessing(tx: EntityManager, organizationId: string, subjectId: string): Promise<void>;
  recordOutcome(tx: EntityManager, organizationId: string, subjectId: string, outcome: RenderOutcome): Promise<void>;
  /** Whether the subject's card may be served on the public route (outside any transaction). */
  isPublic(organizationId: string, subjectId: string): Promise<boolean>;
  /** After a render of a job settled (committed): lets the job settle in turn. */
  renderSettled(organizationId: string, jobId: string): Promise<void>;
}

/** Holds the registered CardSubjects; one per application. */
@Injectable()
export class CardSubjectsRegistry extends Registration<CardSubjects> {
  constructor() {
    super('card subjects');
  }
}
