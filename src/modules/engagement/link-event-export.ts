import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';
import { IsUuidString } from '../../common/validation/validators';
import { RequestValidationError, valueError } from '../../common/errors/validation-issue';
import { ImplementsPort, InjectPort } from '../../common/wiring/port';
import { EXPORT_SOURCES, type ExportSource } from '../exports';
import { LinkEventResponse } from './dto/link-event.response';
import { LinkEventsQuery } from './dto/link-events.query';
import { EngagementService } from './engagement.service';
import { ROLLUP_LINKS, type RollupLinks } from './rollup-links';

/** A link's event timeline filters, the link named among them. */
export class LinkEventExportFilters extends LinkEventsQuery {
  @ApiProperty({ format: 'uuid' })
  @IsDefined()
  @IsUuidString()
  link_id: string;
}

/** A link's event timeline as the exports module reads it: GET /api/v1/custom-links/{link_id}/events, page by page. */
@Injectable()
@ImplementsPort(EXPORT_SOURCES)
export class LinkEventExport implements ExportSource<LinkEventExportFilters> {
  readonly resource = 'link_events';
  readonly scopes = ['custom_links:read' as const];
  readonly filters = LinkEventExportFilters;
  readonly item = LinkEventResponse;

  constructor(
    private readonly engagement: EngagementService,
    @InjectPort(ROLLUP_LINKS) private readonly links: RollupLinks,
  ) {}

  /** The link must be the organization's when the export is made. */
  async check(organizationId: string, filters: LinkEventExportFilters): Promise<void> {
    if (!(await this.links.exists(organizationId, filters.link_id))) {
      throw new RequestValidationError([
        valueError(
          ['body', 'filters', 'link_id'],
          filters.link_id,
          "no Custom Link with this id in the key's organization",
        ),
      ]);
    }
  }

  async page(organizationId: string, query: LinkEventExportFilters) {
    const { events, nextCursor } = await this.engagement.eventsOfLink(organizationId, query.link_id, query);
    return { items: events, nextCursor };
  }
}
