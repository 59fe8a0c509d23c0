export { PrivacyHttpModule, PrivacyModule, PrivacyWorkerModule } from './privacy.module';
