import { Module, type OnModuleInit } from '@nestjs/common';
import { ExportsModule, ExportSources } from '../exports';
import { AccountExport } from './account-export';
import { AccountRollupsService } from './account-rollups.service';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';

/** Accounts: reads and rollups, for every role (no routes; see AccountsHttpModule); the list registers with exports. */
@Module({
  imports: [ExportsModule],
  providers: [AccountsRepository, AccountsService, AccountRollupsService, AccountExport],
  exports: [AccountsService, AccountRollupsService],
})
export class AccountsModule implements OnModuleInit {
  constructor(
    private readonly exportSources: ExportSources,
    private readonly accountExport: AccountExport,
  ) {}

  onModuleInit(): void {
    this.exportSources.register(this.accountExport);
  }
}
