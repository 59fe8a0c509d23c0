import { Injectable } from '@nestjs/common';
import { ImplementsPort } from '../../common/wiring/port';
import { ACCOUNT_ACTIVITY, type AccountActivitySource, type ActivityPageQuery, type ActivityRow } from '../accounts';
import { SessionsRepository } from './sessions.repository';

/** The sessions of an account's people, as its activity lists them: visible sessions only. */
@Injectable()
@ImplementsPort(ACCOUNT_ACTIVITY)
export class SessionsOfAccounts implements AccountActivitySource {
  readonly kind = 'session';

  constructor(private readonly sessions: SessionsRepository) {}

  page(organizationId: string, query: ActivityPageQuery): Promise<ActivityRow[]> {
    return this.sessions.accountActivityPage(organizationId, query);
  }
}
