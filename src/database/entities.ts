import { ApiKeyEntity } from '../modules/api-keys/entities/api-key.entity';
import { CampaignEntity } from '../modules/campaigns/entities/campaign.entity';
import { IdempotencyRecordEntity } from '../common/idempotency/idempotency-record.entity';
import { OrganizationEntity } from '../modules/organizations/entities/organization.entity';

/** Every TypeORM entity; the schema itself comes from migrations. */
export const ENTITIES = [OrganizationEntity, ApiKeyEntity, IdempotencyRecordEntity, CampaignEntity];
