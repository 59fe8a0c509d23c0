export { EventsRequest } from './dto/events.request';
export { EngagementHttpModule } from './engagement-http.module';
export { EngagementJobsModule } from './engagement-jobs.module';
export { EngagementModule } from './engagement.module';
export { EventsService } from './events.service';
export { LinkOpensService } from './link-opens.service';
export { engagementOf, type EventType, type StoredEngagement } from './rules/engagement-rollup';
export { lifecycleOf } from './rules/lifecycle';
