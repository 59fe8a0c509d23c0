import { Module } from '@nestjs/common';
import { EngagementModule } from '../engagement';
import { SessionsModule } from '../sessions';
import { SettingsModule } from '../settings';
import { RetentionService } from './retention.service';

/**
 * Data retention (docs/api.md §6.10): each organization's setting (settings) applied to what
 * sessions and engagement keep, through the retention services they export. Its daily run is a
 * maintenance job; `retention:run` runs it on demand. Owns no table.
 */
@Module({
  imports: [SettingsModule, SessionsModule, EngagementModule],
  providers: [RetentionService],
  exports: [RetentionService],
})
export class RetentionModule {}
