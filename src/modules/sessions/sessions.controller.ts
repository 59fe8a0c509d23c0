import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { SessionListQuery } from './dto/session-list.query';
import { SessionDetailResponse, SessionListResponse } from './dto/session.response';
import { TranscriptResponse } from './dto/transcript.response';
import { SessionsService } from './sessions.service';

@ApiTags('Sessions')
@Controller('api/v1/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @ApiOperation({ summary: 'List sessions' })
  @RequireScope('sessions:read')
  @ApiOkResponse({ type: SessionListResponse, description: 'Analyzed production sessions, newest first.' })
  @ApiErrorResponses(401, 403, 422, 429)
  list(@Caller() caller: Principal, @Query() query: SessionListQuery): Promise<SessionListResponse> {
    return this.sessions.list(caller.organizationId, query);
  }

  @Get(':session_id')
  @ApiOperation({ summary: 'Get a session' })
  @ApiParam({ name: 'session_id', format: 'uuid' })
  @RequireScope('sessions:read')
  @ApiOkResponse({ type: SessionDetailResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  get(
    @Caller() caller: Principal,
    @Param('session_id', ParseUuidPipe) sessionId: string,
  ): Promise<SessionDetailResponse> {
    return this.sessions.get(caller.organizationId, sessionId);
  }

  @Get(':session_id/transcript')
  @ApiOperation({ summary: 'Get a session transcript' })
  @ApiParam({ name: 'session_id', format: 'uuid' })
  @RequireScope('transcripts:read')
  @ApiOkResponse({
    type: TranscriptResponse,
    description: 'Consumes one of the organization’s daily transcript reads.',
  })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  transcript(
    @Caller() caller: Principal,
    @Param('session_id', ParseUuidPipe) sessionId: string,
  ): Promise<TranscriptResponse> {
    return this.sessions.transcript(caller.organizationId, sessionId);
  }
}
