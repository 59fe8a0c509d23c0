import { Injectable } from '@nestjs/common';
import { ImplementsPort } from '../../common/wiring/port';
import { EXPORT_SOURCES, type ExportSource } from '../exports';
import { CustomLinkListQuery } from './dto/custom-link-list.query';
import { CustomLinkResponse } from './dto/custom-link.response';
import { CustomLinksService } from './custom-links.service';

/** The Custom Link list as the exports module reads it: GET /api/v1/custom-links, page by page. */
@Injectable()
@ImplementsPort(EXPORT_SOURCES)
export class LinkExport implements ExportSource<CustomLinkListQuery> {
  readonly resource = 'custom_links';
  readonly scopes = ['custom_links:read' as const];
  readonly filters = CustomLinkListQuery;
  readonly item = CustomLinkResponse;

  constructor(private readonly links: CustomLinksService) {}

  async page(organizationId: string, query: CustomLinkListQuery) {
    const { customLinks, nextCursor } = await this.links.list(organizationId, query);
    return { items: customLinks, nextCursor };
  }
}
