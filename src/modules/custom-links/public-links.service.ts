import { Injectable } from '@nestjs/common';
import { GoneError, NotFoundError } from '../../common/errors/domain-errors';
import { AppConfigService } from '../../config/app-config';
import { CustomLinksRepository } from './custom-links.repository';
import { LinkUrls } from './link-urls';
import { LinkOpensService, UTM_FIELDS, type OpenSignals } from '../engagement';

/** An open's signals as the route reads them, with the `preview` token it carried (checked here, against the link). */
export type OpenRequest = Omit<OpenSignals, 'preview'> & { previewToken: string | null };

/** What newSlug() makes (base64url), with room for slugs of other lengths; the column holds 32. */
const SLUG = /^[A-Za-z0-9_-]{1,32}$/;

@Injectable()
export class PublicLinksService {
  constructor(
    private readonly links: CustomLinksRepository,
    private readonly config: AppConfigService,
    private readonly opens: LinkOpensService,
    private readonly urls: LinkUrls,
  ) {}

  /**
   * Where GET /l/{slug} redirects; 404 for an unknown slug, 410 for an inactive link (docs/api.md §6.1).
   * The open is recorded off the request path: one read here and one queue write. Its UTM
   * parameters go on to the experience.
   */
  async open(slug: string, request: OpenRequest): Promise<string> {
    // Only a string shaped like a slug is looked up: any other bytes (NUL, invalid UTF-8, 10,000
    // characters) are an unknown link, never a database error.
    const link = SLUG.test(slug) ? await this.links.findBySlug(slug) : null;
    if (!link) throw new NotFoundError('Not Found');
    if (!link.active) throw new GoneError('This link is no longer active.');
    const { previewToken, ...signals } = request;
    const preview = previewToken !== null && this.urls.isPreview(link.id, previewToken);
    await this.opens.queue({ organizationId: link.organization_id, id: link.id }, { ...signals, preview });
    const target = new URL(this.config.values.experienceBaseUrl);
    target.searchParams.set('cl', slug);
    // The tracker on the experience tags a previewing viewer as internal.
    if (preview) target.searchParams.set('preview', '1');
    for (const field of UTM_FIELDS) {
      const value = request.utm?.[field];
      if (value) target.searchParams.set(`utm_${field}`, value);
    }
    return target.toString();
  }
}
