import { Injectable } from '@nestjs/common';
import { ImplementsPort } from '../../common/wiring/port';
import { EXPORT_SOURCES, type ExportSource } from '../exports';
import { SessionListQuery } from './dto/session-list.query';
import { SessionResponse } from './dto/session.response';
import { SessionsService } from './sessions.service';

/** The session list as the exports module reads it: GET /api/v1/sessions, page by page. */
@Injectable()
@ImplementsPort(EXPORT_SOURCES)
export class SessionExport implements ExportSource<SessionListQuery> {
  readonly resource = 'sessions';
  readonly scopes = ['sessions:read' as const];
  readonly filters = SessionListQuery;
  readonly item = SessionResponse;

  constructor(private readonly sessions: SessionsService) {}

  async page(organizationId: string, query: SessionListQuery) {
    const { sessions, pagination } = await this.sessions.list(organizationId, query);
    return { items: sessions, nextCursor: pagination.nextCursor };
  }
}
