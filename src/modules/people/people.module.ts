import { Module, type OnModuleInit } from '@nestjs/common';
import { AccountsModule } from '../accounts';
import { ExportsModule, ExportSources } from '../exports';
import { IntentRefreshService } from './intent-refresh.service';
import { PeopleRollupsService } from './people-rollups.service';
import { PeopleRepository } from './people.repository';
import { PeopleService } from './people.service';
import { PersonExport } from './person-export';
import { PersonSessionsRegistry } from './person-sessions';

/**
 * People: reads, rollups and the intent recomputation, for every role (no routes; see PeopleHttpModule).
 * People are rolled up from sessions, which the sessions module registers (PersonSessions); the list registers with exports.
 */
@Module({
  imports: [AccountsModule, ExportsModule],
  providers: [
    PeopleRepository,
    PeopleService,
    PeopleRollupsService,
    IntentRefreshService,
    PersonSessionsRegistry,
    PersonExport,
  ],
  exports: [PeopleService, PeopleRollupsService, IntentRefreshService, PersonSessionsRegistry],
})
export class PeopleModule implements OnModuleInit {
  constructor(
    private readonly exportSources: ExportSources,
    private readonly personExport: PersonExport,
  ) {}

  onModuleInit(): void {
    this.exportSources.register(this.personExport);
  }
}
