import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { responseHeaders } from '../../common/http/openapi-headers';
import { PublicRouteLimits } from '../../common/limits/public-route-limit.guard';
import { PublicLinksService } from './public-links.service';

/** What prospects' browsers reach: the link itself. No key. */
@ApiTags('Public')
@Public()
@Controller()
export class PublicLinksController {
  constructor(private readonly links: PublicLinksService) {}

  @Get('l/:slug')
  @ApiOperation({ summary: 'Open a Custom Link' })
  // Per client address, generous for an office behind one address, and per link against a flood
  // from many addresses: each open is a queued job and a stored event.
  @PublicRouteLimits(
    { name: 'link-opens:client', perMinute: 'linkOpensPerClientPerMinute', per: 'client' },
    { name: 'link-opens:link', perMinute: 'linkOpensPerLinkPerMinute', per: { param: 'slug' } },
  )
  @ApiParam({ name: 'slug' })
  @ApiResponse({
    status: 302,
    description: 'To {EXPERIENCE_BASE_URL}?cl={slug}.',
    headers: responseHeaders(['Location'], [], { Location: 'The experience URL: {EXPERIENCE_BASE_URL}?cl={slug}.' }),
  })
  @ApiResponse({ status: 404, description: 'Unknown slug.' })
  @ApiResponse({ status: 410, description: 'The link is inactive.' })
  async open(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    // Express answers HEAD with this GET route: a HEAD is recorded as a bot open (head_request).
    res.redirect(
      302,
      await this.links.open(slug, { method: req.method, userAgent: req.headers['user-agent'], headers: req.headers }),
    );
  }
}
