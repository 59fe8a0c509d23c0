import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CAMPAIGN_TRACK_BODIES, CAMPAIGN_UPDATE_JOINED_ONCE } from './1764600000000-CampaignEngagementRollup';
import { statementTriggerFunction } from './statement-triggers';

/**
 * campaign_engagement's trigger on custom_links updates joins a statement's old and new rows once
 * (issue 21): its former query re-ran that join for every changed link, which made the rollup merge
 * of an event batch quadratic in its links.
 */
export class CampaignEngagementJoinOnce1765800000002 implements MigrationInterface {
  name = 'CampaignEngagementJoinOnce1765800000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      statementTriggerFunction(
        'campaign_engagement_track',
        { ...CAMPAIGN_TRACK_BODIES, update: CAMPAIGN_UPDATE_JOINED_ONCE },
        true,
      ),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(statementTriggerFunction('campaign_engagement_track', CAMPAIGN_TRACK_BODIES, true));
  }
}
