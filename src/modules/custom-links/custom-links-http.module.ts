import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { CustomLinksController } from './custom-links.controller';
import { CustomLinksModule } from './custom-links.module';
import { PublicLinksController } from './public-links.controller';

/** The Custom Link and public link routes (API role only). */
@Module({
  imports: [CustomLinksModule, IdempotencyModule],
  controllers: [CustomLinksController, PublicLinksController],
})
export class CustomLinksHttpModule {}
