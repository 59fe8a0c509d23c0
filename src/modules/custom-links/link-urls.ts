import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfigService } from '../../config/app-config';

/**
 * A link's public URLs: `{PUBLIC_BASE_URL}/l/{slug}` and its preview URL, which adds
 * `?preview=<token>`, the token a MAC of the link id (docs/api.md §6.8): it cannot be made for another
 * link without the server's key. The key is derived from CURSOR_SECRET (rotating that secret also ends
 * the preview URLs handed out, which then open as ordinary, external opens).
 */
@Injectable()
export class LinkUrls {
  private readonly base: string;
  private readonly key: Buffer;

  constructor(config: AppConfigService) {
    this.base = config.values.publicBaseUrl;
    this.key = createHmac('sha256', config.values.cursorSecret).update('custom-link-preview').digest();
  }

  url(slug: string): string {
    return `${this.base}/l/${slug}`;
  }

  previewUrl(linkId: string, slug: string): string {
    return `${this.url(slug)}?preview=${this.token(linkId)}`;
  }

  /** Whether `token` is the link's preview token (compared in constant time). */
  isPreview(linkId: string, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const expected = Buffer.from(this.token(linkId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private token(linkId: string): string {
    return createHmac('sha256', this.key).update(linkId.toLowerCase()).digest('base64url').slice(0, 22);
  }
}
