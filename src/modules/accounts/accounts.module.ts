import { Module } from '@nestjs/common';
import { AccountRollupsService } from './account-rollups.service';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';

/** Accounts: reads and rollups, for every role (no routes; see AccountsHttpModule). */
@Module({
  providers: [AccountsRepository, AccountsService, AccountRollupsService],
  exports: [AccountsService, AccountRollupsService],
})
export class AccountsModule {}
