import { Global, Module } from '@nestjs/common';
import { CountCache } from './count-cache';
import { Cursors } from './cursor';

/** One CountCache (its state lives in Redis; one instance is enough) and the list cursors, for the whole application. */
@Global()
@Module({ providers: [CountCache, Cursors], exports: [CountCache, Cursors] })
export class CountCacheModule {}
