export { AccountRollupsService, type PeopleOfDomains } from './account-rollups.service';
export { AccountsHttpModule, AccountsModule } from './accounts.module';
export { accountDomainOf } from './rules/account-domain';
export type { PersonFacts } from './rules/account-rollup';
