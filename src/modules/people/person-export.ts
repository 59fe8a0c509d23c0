import { Injectable } from '@nestjs/common';
import { ImplementsPort } from '../../common/wiring/port';
import { EXPORT_SOURCES, type ExportSource } from '../exports';
import { PeopleListQuery } from './dto/people-list.query';
import { PersonResponse } from './dto/person.response';
import { PeopleService } from './people.service';

/** The people list as the exports module reads it: GET /api/v1/people, page by page. */
@Injectable()
@ImplementsPort(EXPORT_SOURCES)
export class PersonExport implements ExportSource<PeopleListQuery> {
  readonly resource = 'people';
  readonly scopes = ['people:read' as const];
  readonly filters = PeopleListQuery;
  readonly item = PersonResponse;

  constructor(private readonly people: PeopleService) {}

  async page(organizationId: string, query: PeopleListQuery) {
    const { people, pagination } = await this.people.list(organizationId, query);
    return { items: people, nextCursor: pagination.nextCursor };
  }
}
