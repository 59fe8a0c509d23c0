import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts';
import { IntentRefreshService } from './intent-refresh.service';
import { PeopleRollupsService } from './people-rollups.service';
import { PeopleRepository } from './people.repository';
import { PeopleService } from './people.service';
import { PersonSessionsRegistry } from './person-sessions';

/**
 * People: reads, rollups and the intent recomputation, for every role (no routes; see PeopleHttpModule).
 * People are rolled up from sessions, which the sessions module registers (PersonSessions).
 */
@Module({
  imports: [AccountsModule],
  providers: [PeopleRepository, PeopleService, PeopleRollupsService, IntentRefreshService, PersonSessionsRegistry],
  exports: [PeopleService, PeopleRollupsService, IntentRefreshService, PersonSessionsRegistry],
})
export class PeopleModule {}
