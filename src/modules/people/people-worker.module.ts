import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { IntentProcessor } from './jobs/intent.processor';
import { PEOPLE_INTENT_QUEUE } from './jobs/intent.queue';
import { PeopleModule } from './people.module';

/** Worker-only: the daily intent recomputation. */
@Module({
  imports: [BullModule.registerQueue({ name: PEOPLE_INTENT_QUEUE }), PeopleModule],
  providers: [IntentProcessor],
})
export class PeopleWorkerModule {}
