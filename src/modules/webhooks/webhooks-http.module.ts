import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { WebhooksController } from './webhooks.controller';
import { WebhooksModule } from './webhooks.module';

/** The webhook endpoint routes (API role only). */
@Module({ imports: [WebhooksModule, IdempotencyModule], controllers: [WebhooksController] })
export class WebhooksHttpModule {}
