import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfigService } from '../../config/app-config';
import { REDIS, type RedisClient } from '../redis/redis.module';
import { LimitsService } from './limits.service';
import { RedisThrottlerStorage } from './redis-throttler.storage';
import { WindowCounter } from '../counters/window-counter';

const MINUTE_MS = 60_000;

@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfigService, REDIS],
      useFactory: (config: AppConfigService, redis: RedisClient) => ({
        throttlers: [{ name: 'default', ttl: MINUTE_MS, limit: config.values.limits.requestsPerMinute }],
        storage: new RedisThrottlerStorage(new WindowCounter(redis)),
      }),
    }),
  ],
  providers: [LimitsService],
  exports: [LimitsService, ThrottlerModule],
})
export class LimitsModule {}
