export { EventsRequest } from './dto/events.request';
export { EngagementHttpModule, EngagementWorkerModule, EngagementModule } from './engagement.module';
export { EventsService } from './events.service';
export { EventFold } from './event-fold.service';
export { EventRetention } from './event-retention';
export { OrganizationEngagement, OrganizationEngagementModule } from './organization-engagement';
export { FoldProgress } from './fold-progress';
export { LinkFiling } from './link-filing';
export type { FiledLink } from './engagement.repository';
export { AS_OF } from './dto/as-of';
export { LinkOpensService, type OpenSignals } from './link-opens.service';
export { countsTowardCap, type RecordOpenPayload } from './jobs/link-opens.queue';
export { utmOfQuery, UTM_FIELDS, type Utm } from './rules/event-context';
export { ROLLUP_LINKS, type LinkRollupDelta, type LinkView, type RollupLinks } from './rollup-links';
export { TRACKED_SESSIONS, type TrackedSessions } from './tracked-sessions';
export {
  engagementOf,
  type DistinctKind,
  type EventType,
  type StoredEngagement,
  type TimeStats,
} from './rules/engagement-rollup';
export { lifecycleOf } from './rules/lifecycle';
export type { MilestoneTimes } from './rules/link-milestones';
export { LINK_FIGURE_COLUMNS, type LinkFigures, type LinkFiguresChange } from './rules/campaign-figures';
export { BOT_REASONS, type BotReason, type BotSignals } from './rules/bot-detection';
export { noBotOpens, type BotOpens } from './rules/engagement-rollup';
export { LinkEventCounts, type LinkEventCount } from './link-event-counts';
