export { SettingsHttpModule, SettingsModule } from './settings.module';
export { SettingsService } from './settings.service';
export {
  INTERNAL_REASONS,
  internalReasonOf,
  type InternalReason,
  type InternalTrafficRules,
  type TrafficSignals,
} from './rules/internal-traffic';
export { keepEverything, retentionCutoffs, type RetentionCutoffs, type RetentionPolicy } from './rules/retention';
