import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts';
import { IntentRefreshService } from './intent-refresh.service';
import { PeopleRollupsService } from './people-rollups.service';
import { PeopleRepository } from './people.repository';
import { PeopleService } from './people.service';

/** People: reads, rollups and the intent recomputation, for every role (no routes; see PeopleHttpModule). */
@Module({
  imports: [AccountsModule],
  providers: [PeopleRepository, PeopleService, PeopleRollupsService, IntentRefreshService],
  exports: [PeopleService, PeopleRollupsService, IntentRefreshService],
})
export class PeopleModule {}
