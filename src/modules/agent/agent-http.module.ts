import { Module } from '@nestjs/common';
import { ConditionalGet } from '../../common/limits/conditional-get';
import { IdempotencyModule } from '../../common/idempotency/idempotency.module';
import { AgentController } from './agent.controller';
import { AgentModule } from './agent.module';

/** The agent routes (API role only). */
@Module({ providers: [ConditionalGet], imports: [AgentModule, IdempotencyModule], controllers: [AgentController] })
export class AgentHttpModule {}
