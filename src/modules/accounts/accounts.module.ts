import { Module } from '@nestjs/common';
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

/** The accounts routes (API role only). */
@Module({ imports: [AccountsModule], controllers: [AccountsController] })
export class AccountsHttpModule {}
