import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { PeopleListQuery } from './dto/people-list.query';
import { PeopleListResponse, PersonResponse } from './dto/person.response';
import { PeopleService } from './people.service';

@ApiTags('People')
@Controller('api/v1/people')
export class PeopleController {
  constructor(private readonly people: PeopleService) {}

  @Get()
  @ApiOperation({ summary: 'List people' })
  @RequireScope('people:read')
  @ApiOkResponse({ type: PeopleListResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  list(@Caller() caller: Principal, @Query() query: PeopleListQuery): Promise<PeopleListResponse> {
    return this.people.list(caller.organizationId, query);
  }

  @Get(':person_id')
  @ApiOperation({ summary: 'Get a person' })
  @ApiParam({ name: 'person_id', format: 'uuid' })
  @RequireScope('people:read')
  @ApiOkResponse({ type: PersonResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  get(@Caller() caller: Principal, @Param('person_id', ParseUuidPipe) personId: string): Promise<PersonResponse> {
    return this.people.get(caller.organizationId, personId);
  }
}
