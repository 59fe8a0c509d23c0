import { Module } from '@nestjs/common';
import { ConditionalGet } from '../../common/limits/conditional-get';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { ExportsController } from './exports.controller';
import { ExportsModule } from './exports.module';

/** The export routes (API role only). */
@Module({ providers: [ConditionalGet], imports: [ExportsModule, IdempotencyModule], controllers: [ExportsController] })
export class ExportsHttpModule {}
