import { Foundation1763800000000 } from './1763800000000-Foundation';
import { SessionsPeopleAccounts1763900000000 } from './1763900000000-SessionsPeopleAccounts';
import { CustomLinks1764000000000 } from './1764000000000-CustomLinks';
import { CustomLinkListIndexes1764100000000 } from './1764100000000-CustomLinkListIndexes';
import { Engagement1764200000000 } from './1764200000000-Engagement';
import { CampaignEngagementIndex1764300000000 } from './1764300000000-CampaignEngagementIndex';
import { Playbook1764400000000 } from './1764400000000-Playbook';
import { SessionCounts1764500000000 } from './1764500000000-SessionCounts';
import { CampaignEngagementRollup1764600000000 } from './1764600000000-CampaignEngagementRollup';
import { SessionListEmailKey1764700000000 } from './1764700000000-SessionListEmailKey';
import { SessionEmailSearch1764800000000 } from './1764800000000-SessionEmailSearch';
import { FixedThumbnailErrorMessages1764917000000 } from './1764917000000-FixedThumbnailErrorMessages';
import { IdempotencyResponseText1764918000000 } from './1764918000000-IdempotencyResponseText';
import { IdempotencyLeases1764950000000 } from './1764950000000-IdempotencyLeases';
import { RetryItemsOnce1764960000000 } from './1764960000000-RetryItemsOnce';
import { JobLeases1765001000000 } from './1765001000000-JobLeases';
import { TranscriptDailyReads1765200000000 } from './1765200000000-TranscriptDailyReads';
import { Webhooks1765300000000 } from './1765300000000-Webhooks';
import { SyncUpdatedAt1765400000000 } from './1765400000000-SyncUpdatedAt';
import { LinkBotReasons1765500000000 } from './1765500000000-LinkBotReasons';
import { Exports1765700000000 } from './1765700000000-Exports';
import { LinkRollupWrites1765800000000 } from './1765800000000-LinkRollupWrites';
import { EngagementRowsCascade1765800000001 } from './1765800000001-EngagementRowsCascade';
import { CampaignEngagementJoinOnce1765800000002 } from './1765800000002-CampaignEngagementJoinOnce';
import { CardImagesStoredAsIs1765850000000 } from './1765850000000-CardImagesStoredAsIs';
import { TenantEmailSearch1765900000000 } from './1765900000000-TenantEmailSearch';
import { LinkSearchApart1766000000000 } from './1766000000000-LinkSearchApart';
import { ReadModels1766100000000 } from './1766100000000-ReadModels';
import { EventContext1766200000000 } from './1766200000000-EventContext';
import { InternalTraffic1766300000000 } from './1766300000000-InternalTraffic';
import { EventLog1766500000000 } from './1766500000000-EventLog';
import { LinkCardStates1766400000000 } from './1766400000000-LinkCardStates';
import { LinkDerivedWrites1767210000000 } from './1767210000000-LinkDerivedWrites';
import { linkAccountDomains } from './1766600000000-LinkAccountDomains';
import { WebhookFilters1766650000000 } from './1766650000000-WebhookFilters';
import { AccountActivity1766700000000 } from './1766700000000-AccountActivity';
import { AnalyticsFacets1766800000000 } from './1766800000000-AnalyticsFacets';
import { Retention1766900000000 } from './1766900000000-Retention';
import { Privacy1767000000000 } from './1767000000000-Privacy';
import { SubjectLookups1767050000000 } from './1767050000000-SubjectLookups';
import { WebhookMessageLifetime1767060000000 } from './1767060000000-WebhookMessageLifetime';
import { RowLevelTriggers1767100000000 } from './1767100000000-RowLevelTriggers';
import { GlobalKeyLookups1767100000001 } from './1767100000001-GlobalKeyLookups';
import { CampaignLinksNoSetNull1767100000002 } from './1767100000002-CampaignLinksNoSetNull';
import { SessionDerivedWrites1767200000000 } from './1767200000000-SessionDerivedWrites';
import { LinkAccess1767300000000 } from './1767300000000-LinkAccess';
import { SessionSeekCounts1767400000000 } from './1767400000000-SessionSeekCounts';
import { EmailGramShares1767500000000 } from './1767500000000-EmailGramShares';
import { SessionSeekTotals1767600000000 } from './1767600000000-SessionSeekTotals';
import { prospectAccountDomain } from '../../common/network/account-domain';

/** Its backfill runs the rule every write of a link runs (src/common/network/account-domain.ts). */
const LinkAccountDomains1766600000000 = linkAccountDomains(prospectAccountDomain);

/** Every migration, oldest first. */
export const MIGRATIONS = [
  Foundation1763800000000,
  SessionsPeopleAccounts1763900000000,
  CustomLinks1764000000000,
  CustomLinkListIndexes1764100000000,
  Engagement1764200000000,
  CampaignEngagementIndex1764300000000,
  Playbook1764400000000,
  SessionCounts1764500000000,
  CampaignEngagementRollup1764600000000,
  SessionListEmailKey1764700000000,
  SessionEmailSearch1764800000000,
  FixedThumbnailErrorMessages1764917000000,
  IdempotencyResponseText1764918000000,
  IdempotencyLeases1764950000000,
  RetryItemsOnce1764960000000,
  JobLeases1765001000000,
  TranscriptDailyReads1765200000000,
  Webhooks1765300000000,
  SyncUpdatedAt1765400000000,
  LinkBotReasons1765500000000,
  Exports1765700000000,
  LinkRollupWrites1765800000000,
  EngagementRowsCascade1765800000001,
  CampaignEngagementJoinOnce1765800000002,
  CardImagesStoredAsIs1765850000000,
  TenantEmailSearch1765900000000,
  LinkSearchApart1766000000000,
  ReadModels1766100000000,
  EventContext1766200000000,
  InternalTraffic1766300000000,
  LinkCardStates1766400000000,
  EventLog1766500000000,
  LinkAccountDomains1766600000000,
  WebhookFilters1766650000000,
  AccountActivity1766700000000,
  AnalyticsFacets1766800000000,
  Retention1766900000000,
  Privacy1767000000000,
  SubjectLookups1767050000000,
  WebhookMessageLifetime1767060000000,
  RowLevelTriggers1767100000000,
  GlobalKeyLookups1767100000001,
  CampaignLinksNoSetNull1767100000002,
  SessionDerivedWrites1767200000000,
  LinkDerivedWrites1767210000000,
  LinkAccess1767300000000,
  SessionSeekCounts1767400000000,
  EmailGramShares1767500000000,
  SessionSeekTotals1767600000000,
];
