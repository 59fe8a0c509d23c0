import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

/** GET /api/v1/usage: every limit's figures, read where each limit keeps them (API role only). */
@Module({ imports: [SessionsModule], providers: [UsageService], controllers: [UsageController] })
export class UsageHttpModule {}
