import { Injectable } from '@nestjs/common';
import { GoneError, NotFoundError } from '../../common/errors/domain-errors';
import { AppConfigService } from '../../config/app-config';
import { CustomLinksRepository } from './custom-links.repository';
import { LinkOpensService } from '../engagement';

@Injectable()
export class PublicLinksService {
  constructor(
    private readonly links: CustomLinksRepository,
    private readonly config: AppConfigService,
    private readonly opens: LinkOpensService,
  ) {}

  /**
   * Where GET /l/{slug} redirects; 404 for an unknown slug, 410 for an inactive link (docs/api.md §6.1).
   * The open is recorded off the request path: one read here and one queue write.
   */
  async open(slug: string, request: { method: string; userAgent: string | undefined }): Promise<string> {
    const link = slug.length <= 64 ? await this.links.findBySlug(slug) : null;
    if (!link) throw new NotFoundError('Not Found');
    if (!link.active) throw new GoneError('This link is no longer active.');
    await this.opens.queue({ organizationId: link.organization_id, id: link.id }, request);
    const target = new URL(this.config.values.experienceBaseUrl);
    target.searchParams.set('cl', slug);
    return target.toString();
  }
}
