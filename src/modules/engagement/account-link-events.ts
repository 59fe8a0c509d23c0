import { Injectable } from '@nestjs/common';
import { ImplementsPort } from '../../common/wiring/port';
import { ACCOUNT_ACTIVITY, type AccountActivitySource, type ActivityPageQuery, type ActivityRow } from '../accounts';
import { EngagementRepository } from './engagement.repository';

/** The events of an account's links, as its activity lists them: human and external only. */
@Injectable()
@ImplementsPort(ACCOUNT_ACTIVITY)
export class AccountLinkEvents implements AccountActivitySource {
  readonly kind = 'event';

  constructor(private readonly engagement: EngagementRepository) {}

  page(organizationId: string, query: ActivityPageQuery): Promise<ActivityRow[]> {
    return this.engagement.accountActivityPage(organizationId, query);
  }
}
