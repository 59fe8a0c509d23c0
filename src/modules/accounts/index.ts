export { AccountRollupsService } from './account-rollups.service';
export { AccountsHttpModule } from './accounts-http.module';
export { AccountsModule } from './accounts.module';
export { accountDomainOf } from './rules/account-domain';
