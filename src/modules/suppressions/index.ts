export { SuppressionsModule } from './suppressions.module';
export { SuppressionList } from './suppression-list.service';
export type { GivenEmail } from './suppressed-email.error';
