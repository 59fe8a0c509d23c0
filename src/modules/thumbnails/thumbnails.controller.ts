import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { PublicRouteLimits } from '../../common/limits/public-route-limit.guard';
import { ThumbnailsService } from './thumbnails.service';

/** Share cards as prospects' browsers and link unfurlers fetch them. No key. */
@ApiTags('Public')
@Public()
@Controller()
export class ThumbnailsController {
  constructor(private readonly thumbnails: ThumbnailsService) {}

  @Get('thumbnails/:link_id/:file')
  @PublicRouteLimits({ name: 'thumbnails:client', perMinute: 'thumbnailRequestsPerClientPerMinute', per: 'client' })
  @ApiParam({ name: 'link_id', format: 'uuid' })
  @ApiParam({ name: 'file', description: '{sha256}.png' })
  @ApiOkResponse({ description: 'The PNG share card.', content: { 'image/png': {} } })
  @Header('Cache-Control', 'public, max-age=31536000, immutable')
  // Cards are shown on other sites (the experience page, unfurls): helmet's same-origin default would block them.
  @Header('Cross-Origin-Resource-Policy', 'cross-origin')
  async thumbnail(@Param('link_id') linkId: string, @Param('file') file: string, @Res() res: Response): Promise<void> {
    const png = await this.thumbnails.card(linkId, file);
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('ETag', `"${file.slice(0, 64)}"`);
    res.send(png);
  }
}
