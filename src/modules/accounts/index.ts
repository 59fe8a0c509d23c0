export { AccountRollupsService, type PeopleOfDomains } from './account-rollups.service';
export {
  ACCOUNT_ACTIVITY,
  type AccountActivitySource,
  type ActivityPageQuery,
  type ActivityRow,
} from './account-activity';
export { ACCOUNT_LINKS, type AccountLinkFigures, type AccountLinks } from './account-links';
export { AccountsHttpModule, AccountsModule } from './accounts.module';
export { accountDomainOf } from './rules/account-domain';
export type { PersonFacts } from './rules/account-rollup';
