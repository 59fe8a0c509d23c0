export { EventsRequest } from './dto/events.request';
export { EngagementHttpModule } from './engagement-http.module';
export { EngagementJobsModule } from './engagement-jobs.module';
export { EngagementModule } from './engagement.module';
export { EventsService } from './events.service';
export { LinkOpensService } from './link-opens.service';
export { RollupLinksRegistry, type LinkRollupDelta, type RollupLinks } from './rollup-links';
export { engagementOf, type DistinctKind, type EventType, type StoredEngagement, type TimeStats } from './rules/engagement-rollup';
export { lifecycleOf } from './rules/lifecycle';
