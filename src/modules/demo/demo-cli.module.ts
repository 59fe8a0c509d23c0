import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../../config/environment';
import { LimitsModule } from '../../common/limits/limits.module';
import { BullRedisModule } from '../../common/queue/bull-redis';
import { CountCacheModule } from '../../common/pagination/count-cache.module';
import { RedisModule } from '../../common/redis/redis.module';
import { DemoModule } from './demo.module';

export { DemoSeedService } from './demo-seed.service';
export { EventFold } from '../engagement';

/**
 * What demo:seed and events:refold add to the CLI: the ingestion and link stacks' infrastructure,
 * the seeder, and the fold (the refold queues the log again; running workers fold it).
 */
@Module({})
export class DemoCliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: DemoCliModule,
      imports: [RedisModule, CountCacheModule, LimitsModule, BullRedisModule.forRoot(config), DemoModule],
    };
  }
}
