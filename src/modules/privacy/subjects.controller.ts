import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { SubjectAccessQuery } from './dto/subject-access.query';
import { SubjectAccessResponse } from './dto/subject-access.response';
import { SubjectAccessService } from './subject-access.service';

@ApiTags('Privacy')
@Controller('api/v1/privacy/subjects')
export class SubjectsController {
  constructor(private readonly subjects: SubjectAccessService) {}

  @Get()
  @ApiOperation({
    summary: 'Everything held about a person (right of access)',
    description:
      'The person, sessions with their analysis and transcripts, Custom Links personalized for the email and their event counts: the data an erasure of the email removes. An email nobody holds answers empty lists and a null person.',
  })
  @RequireScope('privacy:read', 'privacy:write')
  @ApiOkResponse({ type: SubjectAccessResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  access(@Caller() caller: Principal, @Query() query: SubjectAccessQuery): Promise<SubjectAccessResponse> {
    return this.subjects.access(caller.organizationId, query.email);
  }
}
