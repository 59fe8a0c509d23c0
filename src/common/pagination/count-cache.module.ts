import { Global, Module } from '@nestjs/common';
import { CountCache } from './count-cache';

/** One CountCache for the whole application (its state lives in Redis; one instance is enough). */
@Global()
@Module({ providers: [CountCache], exports: [CountCache] })
export class CountCacheModule {}
