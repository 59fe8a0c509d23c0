import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/domain-errors';
import { CountCache } from '../../common/pagination/count-cache';
import { Cursors, keysetOf } from '../../common/pagination/cursor';
import type { PeopleListQuery } from './dto/people-list.query';
import { toPersonResponse, type PeopleListResponse, type PersonResponse } from './dto/person.response';
import { PEOPLE_LIST } from './people-list';
import { PeopleRepository } from './people.repository';

@Injectable()
export class PeopleService {
  constructor(
    private readonly people: PeopleRepository,
    private readonly counts: CountCache,
    private readonly cursors: Cursors,
  ) {}

  /** The person of an email key as the person route answers it, or null when there is none. */
  async ofEmailKey(organizationId: string, emailKey: string): Promise<PersonResponse | null> {
    const person = await this.people.findByEmailKey(organizationId, emailKey);
    return person ? toPersonResponse(person) : null;
  }

  async list(organizationId: string, query: PeopleListQuery): Promise<PeopleListResponse> {
    const window = this.cursors.window(PEOPLE_LIST, organizationId, query);
    const [rows, total] = await Promise.all([
      this.people.listPage(organizationId, query, window),
      this.counts.count(PEOPLE_LIST, organizationId, query, () => this.people.count(organizationId, query)),
    ]);
    const page = this.cursors.page(PEOPLE_LIST, organizationId, query, window, rows, keysetOf);
    return {
      people: page.rows.map(toPersonResponse),
      pagination: { total, limit: query.limit, offset: page.offset, nextCursor: page.nextCursor },
    };
  }

  async get(organizationId: string, id: string): Promise<PersonResponse> {
    const person = await this.people.findById(organizationId, id);
    if (!person) throw NotFoundError.inOrganization('Person');
    return toPersonResponse(person);
  }

  /** Who an erasure is about (docs/api.md §18.2): the person by id, or by email key; null when not held. */
  async subjectOf(
    organizationId: string,
    by: { id: string } | { emailKey: string },
  ): Promise<{ id: string; emailKey: string } | null> {
    if ('emailKey' in by) {
      const person = await this.people.findByEmailKey(organizationId, by.emailKey);
      return person && { id: person.id, emailKey: by.emailKey };
    }
    const person = await this.people.findById(organizationId, by.id);
    return person && { id: person.id, emailKey: person.email_key };
  }
}
