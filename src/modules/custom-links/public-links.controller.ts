import { Controller, Get, Header, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { PublicLinksService } from './public-links.service';

/** What prospects' browsers reach: the link itself and its share card. No key. */
@ApiTags('Public')
@Public()
@Controller()
export class PublicLinksController {
  constructor(private readonly links: PublicLinksService) {}

  @Get('l/:slug')
  @ApiParam({ name: 'slug' })
  @ApiResponse({ status: 302, description: 'To {EXPERIENCE_BASE_URL}?cl={slug}.' })
  @ApiResponse({ status: 404, description: 'Unknown slug.' })
  @ApiResponse({ status: 410, description: 'The link is inactive.' })
  async open(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, await this.links.open(slug, { method: req.method, userAgent: req.headers['user-agent'] }));
  }

  @Get('thumbnails/:link_id/:file')
  @ApiParam({ name: 'link_id', format: 'uuid' })
  @ApiParam({ name: 'file', description: '{sha256}.png' })
  @ApiOkResponse({ description: 'The PNG share card.', content: { 'image/png': {} } })
  @Header('Cache-Control', 'public, max-age=31536000, immutable')
  async thumbnail(@Param('link_id') linkId: string, @Param('file') file: string, @Res() res: Response): Promise<void> {
    const png = await this.links.thumbnail(linkId, file);
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('ETag', `"${file.slice(0, 64)}"`);
    res.send(png);
  }
}
