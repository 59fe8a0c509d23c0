import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts';
import { IntentRefreshService } from './intent-refresh.service';
import { PeopleRollupsService } from './people-rollups.service';
import { PeopleRepository } from './people.repository';
import { PeopleService } from './people.service';
import { PersonExport } from './person-export';
import { PERSON_SESSIONS } from './person-sessions';
import { PeopleController } from './people.controller';
import { BullModule } from '@nestjs/bull';
import { IntentProcessor } from './jobs/intent.processor';
import { PEOPLE_INTENT_QUEUE } from './jobs/intent.queue';

/**
 * People: reads, rollups and the intent recomputation, for every role (no routes; see PeopleHttpModule).
 * People are rolled up from sessions, which the sessions module gives (PersonSessions); the list is an export source.
 */
@Module({
  imports: [AccountsModule, PERSON_SESSIONS.module],
  providers: [PeopleRepository, PeopleService, PeopleRollupsService, IntentRefreshService, PersonExport],
  exports: [PeopleService, PeopleRollupsService, IntentRefreshService],
})
export class PeopleModule {}

/** The people routes (API role only). */
@Module({ imports: [PeopleModule], controllers: [PeopleController] })
export class PeopleHttpModule {}

/** Worker-only: the daily intent recomputation. */
@Module({
  imports: [BullModule.registerQueue({ name: PEOPLE_INTENT_QUEUE }), PeopleModule],
  providers: [IntentProcessor],
})
export class PeopleWorkerModule {}
