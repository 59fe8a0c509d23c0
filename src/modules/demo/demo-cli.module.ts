import { Module } from '@nestjs/common';
import { LimitsModule } from '../../common/limits/limits.module';
import { RedisModule } from '../../common/redis/redis.module';
import { DemoModule } from './demo.module';

export { DemoSeedService } from './demo-seed.service';

/** What demo:seed adds to the CLI: the ingestion stack's infrastructure and the seeder. */
@Module({ imports: [RedisModule, LimitsModule, DemoModule] })
export class DemoCliModule {}
