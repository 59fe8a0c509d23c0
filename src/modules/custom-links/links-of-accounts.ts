import { Injectable } from '@nestjs/common';
import { ImplementsPort } from '../../common/wiring/port';
import { ACCOUNT_LINKS, type AccountLinkFigures, type AccountLinks } from '../accounts';
import { CustomLinksRepository } from './custom-links.repository';

/** Custom Links as accounts count them: by their stored account domain. */
@Injectable()
@ImplementsPort(ACCOUNT_LINKS)
export class LinksOfAccounts implements AccountLinks {
  constructor(private readonly links: CustomLinksRepository) {}

  figuresOf(organizationId: string, domains: string[]): Promise<Map<string, AccountLinkFigures>> {
    return this.links.figuresByAccount(organizationId, domains);
  }
}
