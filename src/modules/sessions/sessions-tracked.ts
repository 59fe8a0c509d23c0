import { Injectable } from '@nestjs/common';
import type { TrackedSessions } from '../engagement';
import { personJoinSql } from '../people';
import { visibleSession } from './visible-session';

/** Sessions as engagement reads them (session references, the funnel). */
@Injectable()
export class SessionsTracked implements TrackedSessions {
  isVisibleSql(organization: string, session: string): string {
    return `EXISTS (SELECT 1 FROM sessions s WHERE s.organization_id = ${organization} AND s.id = ${session} AND ${visibleSession('s')})`;
  }

  funnelRowsSql(organization: string, linkIds: string, sessionIds: string): string {
    return `SELECT s.effective_qualification_status = 'qualified' AS qualified, s.booked_status = 'booked' AS booked, p.overall_intent = 'high' AS high_intent
              FROM sessions s ${personJoinSql('p', organization, 's.person_id')}
             WHERE s.organization_id = ${organization} AND ${visibleSession('s')}
               AND (s.custom_link_id IN (${linkIds}) OR s.id IN (${sessionIds}))`;
  }
}
