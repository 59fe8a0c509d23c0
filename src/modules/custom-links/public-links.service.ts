import { Injectable } from '@nestjs/common';
import { GoneError, NotFoundError } from '../../common/errors/domain-errors';
import { Clock } from '../../common/time/clock';
import { AppConfigService } from '../../config/app-config';
import { CustomLinksRepository, type PublicLink } from './custom-links.repository';
import { LinkAccessEvents } from './link-access-events';
import { LinkUrls } from './link-urls';
import { countsTowardCap, LinkOpensService, UTM_FIELDS, type OpenSignals, type RecordOpenPayload } from '../engagement';
import { isCapped, isExpired } from './rules/link-access';

/** An open's signals as the route reads them, with the `preview` token it carried (checked here, against the link). */
export type OpenRequest = Omit<OpenSignals, 'preview'> & { previewToken: string | null };

/** What newSlug() makes (base64url), with room for slugs of other lengths; the column holds 32. */
const SLUG = /^[A-Za-z0-9_-]{1,32}$/;

/** How an expired or capped link answers without an expiredRedirectUrl (docs/api.md §6.1). */
export const NO_LONGER_AVAILABLE = 'This link is no longer available.';

@Injectable()
export class PublicLinksService {
  constructor(
    private readonly links: CustomLinksRepository,
    private readonly config: AppConfigService,
    private readonly opens: LinkOpensService,
    private readonly urls: LinkUrls,
    private readonly clock: Clock,
    private readonly access: LinkAccessEvents,
  ) {}

  /**
   * Where GET /l/{slug} redirects; 404 for an unknown slug, 410 for an inactive link (docs/api.md §6.1).
   * An expired or capped link answers every request alike (bot or human): its expiredRedirectUrl, or
   * 410; its open is recorded as refused. The open is recorded off the request path: one read here
   * and one queue write, and for a capped link's human, external open one conditional UPDATE that
   * reserves it. Its UTM parameters go on to the experience.
   */
  async open(slug: string, request: OpenRequest): Promise<string> {
    // Only a string shaped like a slug is looked up: any other bytes (NUL, invalid UTF-8, 10,000
    // characters) are an unknown link, never a database error.
    const link = SLUG.test(slug) ? await this.links.findBySlug(slug) : null;
    if (!link) throw new NotFoundError('Not Found');
    if (!link.active) throw new GoneError('This link is no longer active.');
    const { previewToken, ...signals } = request;
    const preview = previewToken !== null && this.urls.isPreview(link.id, previewToken);
    const open = await this.opens.classify(
      { organizationId: link.organization_id, id: link.id },
      { ...signals, preview },
    );
    if (!(await this.admits(link, open))) {
      await this.opens.queue(open, true);
      if (link.expired_redirect_url) return link.expired_redirect_url;
      throw new GoneError(NO_LONGER_AVAILABLE);
    }
    await this.opens.queue(open);
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

  /**
   * Whether the open goes on to the experience: not when the link is expired or capped. Only a human,
   * external open of a capped link takes one of its opens, reserved atomically, so at most
   * maxHumanOpens of any number of simultaneous opens get through; others pass without a write.
   */
  private async admits(link: PublicLink, open: RecordOpenPayload): Promise<boolean> {
    const now = this.clock.now();
    if (isExpired(link, now) || isCapped(link)) return false;
    if (link.max_human_opens === null || !countsTowardCap(open)) return true;
    return this.access.reserveHumanOpen(link.organization_id, link.id);
  }
}
