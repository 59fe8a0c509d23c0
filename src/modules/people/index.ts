export { PeopleHttpModule, PeopleWorkerModule, PeopleModule } from './people.module';
export { PeopleRollupsService } from './people-rollups.service';
export { PeopleService } from './people.service';
export { PEOPLE_LIST } from './people-list';
export { PERSON_SESSIONS, type PersonSessions, type SessionAssignment } from './person-sessions';
export { BUYING_INTENTS } from './rules/intent';
export type { SessionFacts } from './rules/person-rollup';
export { QUALIFICATION_STATUSES } from './rules/qualification';
export { PersonResponse } from './dto/person.response';
