import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/domain-errors';
import { CountCache } from '../../common/pagination/count-cache';
import type { PeopleListQuery } from './dto/people-list.query';
import { toPersonResponse, type PeopleListResponse, type PersonResponse } from './dto/person.response';
import { PEOPLE_LIST } from './people-list';
import { PeopleRepository } from './people.repository';

@Injectable()
export class PeopleService {
  constructor(
    private readonly people: PeopleRepository,
    private readonly counts: CountCache,
  ) {}

  async list(organizationId: string, query: PeopleListQuery): Promise<PeopleListResponse> {
    const { limit, offset } = query;
    const [rows, total] = await Promise.all([
      this.people.listPage(organizationId, query),
      this.counts.count(PEOPLE_LIST, organizationId, query, () => this.people.count(organizationId, query)),
    ]);
    return { people: rows.map(toPersonResponse), pagination: { total, limit, offset } };
  }

  async get(organizationId: string, id: string): Promise<PersonResponse> {
    const person = await this.people.findById(organizationId, id);
    if (!person) throw NotFoundError.inOrganization('Person');
    return toPersonResponse(person);
  }
}
