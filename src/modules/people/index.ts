export { PeopleHttpModule } from './people-http.module';
export { PeopleJobsModule } from './people-jobs.module';
export { PeopleRollupsService } from './people-rollups.service';
export { PeopleModule } from './people.module';
export { BUYING_INTENTS } from './rules/intent';
export { QUALIFICATION_STATUSES } from './rules/qualification';
