export { RetentionModule } from './retention.module';
export { RetentionService, type RetentionCounts } from './retention.service';
