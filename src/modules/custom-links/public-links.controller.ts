import { applyDecorators, Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { fromTrustedProxy } from '../../common/http/client-address';
import { responseHeaders } from '../../common/http/openapi-headers';
import { PublicRouteLimits } from '../../common/limits/public-route-limit.guard';
import { AppConfigService } from '../../config/app-config';
import { utmOfQuery, UTM_FIELDS } from '../engagement';
import { PublicLinksService, type OpenRequest } from './public-links.service';

/** The UTM parameters an open may carry: stored with it (cut at 255 characters) and passed on to the experience. */
const UtmQuery = () =>
  applyDecorators(
    ...UTM_FIELDS.map((field) =>
      ApiQuery({
        name: `utm_${field}`,
        required: false,
        type: String,
        description: `Stored with the open as utm.${field} (at most 255 characters kept) and passed on to the experience URL.`,
      }),
    ),
  );

/** What prospects' browsers reach: the link itself. No key. */
@ApiTags('Public')
@Public()
@Controller()
export class PublicLinksController {
  constructor(
    private readonly links: PublicLinksService,
    private readonly config: AppConfigService,
  ) {}

  @Get('l/:slug')
  @ApiOperation({ summary: 'Open a Custom Link' })
  // Per client address, generous for an office behind one address, and per link against a flood
  // from many addresses: each open is a queued job and a stored event.
  @PublicRouteLimits(
    { name: 'link-opens:client', perMinute: 'linkOpensPerClientPerMinute', per: 'client' },
    { name: 'link-opens:link', perMinute: 'linkOpensPerLinkPerMinute', per: { param: 'slug' } },
  )
  @ApiParam({ name: 'slug' })
  @UtmQuery()
  @ApiQuery({
    name: 'preview',
    required: false,
    type: String,
    description:
      "The link's preview token (its previewUrl carries it): the open is internal (reason preview) and the experience URL gains preview=1. Any other value is ignored.",
  })
  @ApiResponse({
    status: 302,
    description:
      'To {EXPERIENCE_BASE_URL}?cl={slug}, with the utm_* parameters the open carried; for an expired or capped link, to its expiredRedirectUrl.',
    headers: responseHeaders(['Location'], [], {
      Location:
        "The experience URL: {EXPERIENCE_BASE_URL}?cl={slug}, with the utm_* parameters the open carried; or an expired or capped link's expiredRedirectUrl.",
    }),
  })
  @ApiResponse({ status: 404, description: 'Unknown slug.' })
  @ApiResponse({
    status: 410,
    description:
      'The link is inactive ("This link is no longer active."), or expired or capped without an expiredRedirectUrl ("This link is no longer available.").',
  })
  async open(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const location = await this.links.open(slug, this.signalsOf(req));
    // Express answers HEAD with this GET route: a HEAD is recorded as a bot open (head_request).
    // No body: res.redirect would negotiate one (text or HTML) that no browser shows.
    res.status(302).set({ 'Cache-Control': 'no-store', 'Content-Length': '0' }).location(location).end();
  }

  private signalsOf(req: Request): OpenRequest {
    const countryHeader = this.config.values.geoCountryHeader;
    const proxyCountry = countryHeader !== null && fromTrustedProxy(req) ? req.headers[countryHeader] : undefined;
    return {
      method: req.method,
      userAgent: req.headers['user-agent'],
      headers: req.headers,
      clientAddress: req.ip ?? null,
      proxyCountry: typeof proxyCountry === 'string' ? proxyCountry : null,
      referrer: req.headers.referer ?? null,
      utm: utmOfQuery(req.query),
      previewToken: typeof req.query.preview === 'string' ? req.query.preview : null,
    };
  }
}
