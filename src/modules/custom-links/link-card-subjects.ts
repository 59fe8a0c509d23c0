import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ImplementsPort } from '../../common/wiring/port';
import { CARD_SUBJECTS, type CardSubject, type CardSubjects, type RenderOutcome } from '../thumbnails';
import { CustomLinksRepository, type CustomLinkRow } from './custom-links.repository';

const toCardSubject = (link: CustomLinkRow): CardSubject => ({
  id: link.id,
  name: [link.first_name, link.last_name].filter(Boolean).join(' ') || link.display_name,
  company: link.company,
  logoUrl: link.prospect_logo_url,
});

/** Custom Links as the subjects of share cards: their thumbnail fields live on the link row. */
@Injectable()
@ImplementsPort(CARD_SUBJECTS)
export class LinkCardSubjects implements CardSubjects {
  constructor(private readonly links: CustomLinksRepository) {}

  async startRender(organizationId: string, linkId: string, renderId: string): Promise<CardSubject | null> {
    const link =
      (await this.links.markRenderProcessing(organizationId, linkId, renderId)) ??
      (await this.links.findById(organizationId, linkId));
    return link ? toCardSubject(link) : null;
  }

  recordOutcome(
    tx: EntityManager,
    organizationId: string,
    linkId: string,
    renderId: string,
    outcome: RenderOutcome,
  ): Promise<number | null> {
    return this.links.recordRenderOutcome(tx, organizationId, linkId, renderId, {
      thumbnail_status: outcome.status,
      share_thumbnail_url: outcome.newCardUrl,
      thumbnail_error_code: outcome.error?.code ?? null,
      thumbnail_error_message: outcome.error?.message ?? null,
    });
  }

  organizationOf(linkId: string): Promise<string | null> {
    return this.links.organizationOf(linkId);
  }

  /** An inactive link stops serving (docs/api.md §12.6): its card too. */
  isPublic(organizationId: string, linkId: string): Promise<boolean> {
    return this.links.isActive(organizationId, linkId);
  }
}
