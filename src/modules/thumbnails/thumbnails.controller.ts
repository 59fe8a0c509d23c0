import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { responseHeaders } from '../../common/http/openapi-headers';
import { PublicRouteLimits } from '../../common/limits/public-route-limit.guard';
import { ThumbnailsService } from './thumbnails.service';

const CARD_MAX_AGE_SECONDS = 300;

/** Share cards as prospects' browsers and link unfurlers fetch them. No key. */
@ApiTags('Public')
@Public()
@Controller()
export class ThumbnailsController {
  constructor(private readonly thumbnails: ThumbnailsService) {}

  @Get('thumbnails/:link_id/:file')
  @ApiOperation({ summary: 'Get a share card' })
  @PublicRouteLimits({ name: 'thumbnails:client', perMinute: 'thumbnailRequestsPerClientPerMinute', per: 'client' })
  @ApiParam({ name: 'link_id', format: 'uuid' })
  @ApiParam({ name: 'file', description: '{sha256}.png' })
  @ApiOkResponse({
    description: 'The PNG share card, while its link is active.',
    content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
    headers: responseHeaders(['ETag']),
  })
  @ApiResponse({
    status: 304,
    description: 'Unchanged since If-None-Match (the ETag names the content); no body.',
    headers: responseHeaders(['ETag']),
  })
  @ApiNotFoundResponse({ description: 'No such card: an unknown link or file, or an inactive link.' })
  async thumbnail(@Param('link_id') linkId: string, @Param('file') file: string, @Res() res: Response): Promise<void> {
    const png = await this.thumbnails.card(linkId, file);
    // A card's address never changes content, but a deactivated link's card must leave shared
    // caches soon: a short lifetime, set on cards only (a 404 carries none).
    res.setHeader('Cache-Control', `public, max-age=${CARD_MAX_AGE_SECONDS}`);
    // Cards are shown on other sites (the experience page, unfurls): helmet's same-origin default would block them.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('ETag', `"${file.slice(0, 64)}"`);
    res.send(png);
  }
}
