import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JobsService } from '../jobs';
import type { CardSubject, CardSubjects, RenderOutcome } from '../thumbnails';
import { CustomLinksRepository, type CustomLinkRow } from './custom-links.repository';

const toCardSubject = (link: CustomLinkRow): CardSubject => ({
  id: link.id,
  renderId: link.thumbnail_render_id,
  attempts: link.thumbnail_attempts,
  shareThumbnailUrl: link.share_thumbnail_url,
  name: [link.first_name, link.last_name].filter(Boolean).join(' ') || link.display_name,
  company: link.company,
  logoUrl: link.prospect_logo_url,
});

/** Custom Links as the subjects of share cards: their thumbnail fields live on the link row. */
@Injectable()
export class LinkCardSubjects implements CardSubjects {
  constructor(
    private readonly links: CustomLinksRepository,
    private readonly jobs: JobsService,
  ) {}

  async markQueued(tx: EntityManager, organizationId: string, linkId: string, renderId: string): Promise<void> {
    await this.links.update(tx, organizationId, linkId, { thumbnail_status: 'queued', thumbnail_render_id: renderId, thumbnail_error_code: null, thumbnail_error_message: null });
  }

  async markCancelled(tx: EntityManager, organizationId: string, linkIds: string[]): Promise<void> {
    for (const linkId of linkIds) await this.links.update(tx, organizationId, linkId, { thumbnail_status: 'cancelled' });
  }

  async lock(tx: EntityManager, organizationId: string, linkId: string): Promise<CardSubject | null> {
    const link = await this.links.lock(tx, organizationId, linkId);
    return link ? toCardSubject(link) : null;
  }

  async markProcessing(tx: EntityManager, organizationId: string, linkId: string): Promise<void> {
    await this.links.update(tx, organizationId, linkId, { thumbnail_status: 'processing' });
  }

  async recordOutcome(tx: EntityManager, organizationId: string, linkId: string, outcome: RenderOutcome): Promise<void> {
    await this.links.update(tx, organizationId, linkId, {
      thumbnail_status: outcome.status,
      share_thumbnail_url: outcome.shareThumbnailUrl,
      thumbnail_attempts: outcome.attempts,
      thumbnail_error_code: outcome.error?.code ?? null,
      thumbnail_error_message: outcome.error?.message ?? null,
    });
  }

  /** An inactive link stops serving (docs/api.md §12.6): its card too. */
  isPublic(organizationId: string, linkId: string): Promise<boolean> {
    return this.links.isActive(organizationId, linkId);
  }

  renderSettled(organizationId: string, jobId: string): Promise<void> {
    return this.jobs.settleIfDone(organizationId, jobId);
  }
}
