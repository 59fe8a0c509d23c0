import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-errors';
import { AppConfigService } from '../../config/app-config';
import { CustomLinksRepository } from './custom-links.repository';
import { LinkOpensService } from '../engagement';

class PublicNotFoundError extends ApiError {
  readonly status = 404;
  constructor() {
    super('Not Found');
  }
}

class LinkGoneError extends ApiError {
  readonly status = 410;
  constructor() {
    super('This link is no longer active.');
  }
}

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
    if (!link) throw new PublicNotFoundError();
    if (!link.active) throw new LinkGoneError();
    await this.opens.queue({ organizationId: link.organization_id, id: link.id }, request);
    const target = new URL(this.config.values.experienceBaseUrl);
    target.searchParams.set('cl', slug);
    return target.toString();
  }
}
