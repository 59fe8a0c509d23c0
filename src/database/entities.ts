import { ExportChunkEntity } from '../modules/exports/entities/export-chunk.entity';
import { ExportEntity } from '../modules/exports/entities/export.entity';
import { WebhookDeliveryEntity } from '../modules/webhooks/entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../modules/webhooks/entities/webhook-endpoint.entity';
import { WebhookMessageEntity } from '../modules/webhooks/entities/webhook-message.entity';
import { IdempotencyRecordEntity } from '../common/idempotency/idempotency-record.entity';
import { AccountEntity } from '../modules/accounts/entities/account.entity';
import { AgentEntity } from '../modules/playbook/entities/agent.entity';
import { PublishJobEntity } from '../modules/agent/entities/publish-job.entity';
import { ApiKeyEntity } from '../modules/api-keys/entities/api-key.entity';
import { CampaignEntity } from '../modules/campaigns/entities/campaign.entity';
import { CustomLinkSearchEntity } from '../modules/custom-links/entities/custom-link-search.entity';
import { CustomLinkEntity } from '../modules/custom-links/entities/custom-link.entity';
import { CampaignEngagementEntity } from '../modules/engagement/entities/campaign-engagement.entity';
import { LinkDistinctValueEntity } from '../modules/engagement/entities/link-distinct-value.entity';
import { LinkEventEntity } from '../modules/engagement/entities/link-event.entity';
import { LinkSessionEntity } from '../modules/engagement/entities/link-session.entity';
import { CustomLinkJobItemEntity } from '../modules/jobs/entities/custom-link-job-item.entity';
import { CustomLinkJobEntity } from '../modules/jobs/entities/custom-link-job.entity';
import { OrganizationEntity } from '../modules/organizations/entities/organization.entity';
import { PersonEntity } from '../modules/people/entities/person.entity';
import { AgentVersionEntity } from '../modules/playbook/entities/agent-version.entity';
import { SuggestionGroupEntity } from '../modules/playbook/entities/suggestion-group.entity';
import { SessionCountDeltaEntity } from '../modules/sessions/entities/session-count-delta.entity';
import { SessionCountEntity } from '../modules/sessions/entities/session-count.entity';
import { SessionEmailEntity } from '../modules/sessions/entities/session-email.entity';
import { SessionTranscriptEntity } from '../modules/sessions/entities/session-transcript.entity';
import { SessionEntity } from '../modules/sessions/entities/session.entity';
import { TranscriptDailyReadsEntity } from '../modules/sessions/entities/transcript-daily-reads.entity';
import { ThumbnailImageEntity } from '../modules/thumbnails/entities/thumbnail-image.entity';
import { ThumbnailRenderEntity } from '../modules/thumbnails/entities/thumbnail-render.entity';

/**
 * Every TypeORM entity, one per table. The schema itself comes from migrations; `npm run
 * migration:check` (src/database/migration-check.ts) fails when these declarations and the migrated
 * schema disagree.
 */
export const ENTITIES = [
  // Tenancy and the request pipeline.
  OrganizationEntity,
  ApiKeyEntity,
  IdempotencyRecordEntity,
  // Sessions and what is rolled up from them.
  SessionEntity,
  SessionTranscriptEntity,
  SessionEmailEntity,
  SessionCountEntity,
  SessionCountDeltaEntity,
  TranscriptDailyReadsEntity,
  PersonEntity,
  AccountEntity,
  // Campaigns, Custom Links, their jobs, thumbnails and engagement.
  CampaignEntity,
  CustomLinkEntity,
  CustomLinkSearchEntity,
  CustomLinkJobEntity,
  CustomLinkJobItemEntity,
  ThumbnailRenderEntity,
  ThumbnailImageEntity,
  LinkEventEntity,
  LinkDistinctValueEntity,
  LinkSessionEntity,
  CampaignEngagementEntity,
  // The agent and its playbook.
  AgentEntity,
  AgentVersionEntity,
  SuggestionGroupEntity,
  PublishJobEntity,
  // Webhooks.
  WebhookEndpointEntity,
  WebhookMessageEntity,
  WebhookDeliveryEntity,
  // Exports and their files.
  ExportEntity,
  ExportChunkEntity,
];
