import { Module } from '@nestjs/common';
import { ACCOUNT_ACTIVITY } from './account-activity';
import { AccountActivityService } from './account-activity.service';
import { AccountExport } from './account-export';
import { ACCOUNT_LINKS } from './account-links';
import { AccountRollupsService } from './account-rollups.service';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { AccountsController } from './accounts.controller';

/**
 * Accounts: reads and rollups, for every role (no routes; see AccountsHttpModule); the list is an
 * export source. Their links' engagement comes from custom-links, which implements AccountLinks.
 */
@Module({
  imports: [ACCOUNT_LINKS.module],
  providers: [AccountsRepository, AccountsService, AccountRollupsService, AccountExport],
  exports: [AccountsService, AccountRollupsService],
})
export class AccountsModule {}

/**
 * The accounts routes (API role only). An account's activity is read from the sessions and engagement
 * modules, which implement AccountActivitySource for their kind.
 */
@Module({
  imports: [AccountsModule, ACCOUNT_ACTIVITY.module],
  providers: [AccountActivityService],
  controllers: [AccountsController],
})
export class AccountsHttpModule {}
