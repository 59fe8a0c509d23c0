export { UsageHttpModule } from './usage.module';
