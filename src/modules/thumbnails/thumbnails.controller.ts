import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { ThumbnailsService } from './thumbnails.service';

const CARD_MAX_AGE_SECONDS = 300;

/** Share cards as prospects' browsers and link unfurlers fetch them. No key. */
@ApiTags('Public')
@Public()
@Controller()
export class ThumbnailsController {
  constructor(private readonly thumbnails: ThumbnailsService) {}

  @Get('thumbnails/:link_id/:file')
  @ApiParam({ name: 'link_id', format: 'uuid' })
  @ApiParam({ name: 'file', description: '{sha256}.png' })
  @ApiOkResponse({ description: 'The PNG share card, while its link is active.', content: { 'image/png': {} } })
  async thumbnail(@Param('link_id') linkId: string, @Param('file') file: string, @Res() res: Response): Promise<void> {
    const png = await this.thumbnails.card(linkId, file);
    // A card's address never changes content, but a deactivated link's card must leave shared
    // caches soon: a short lifetime, set on cards only (a 404 carries none).
    res.setHeader('Cache-Control', `public, max-age=${CARD_MAX_AGE_SECONDS}`);
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('ETag', `"${file.slice(0, 64)}"`);
    res.send(png);
  }
}
