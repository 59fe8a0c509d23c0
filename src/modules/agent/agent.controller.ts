import { Body, Controller, Get, HttpCode, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, RequireScope, type AuthenticatedRequest } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiJsonBody } from '../../common/http/api-json-body.decorator';
import { ApiConditionalGet, ConditionalGet } from '../../common/limits/conditional-get';
import { responseHeaders } from '../../common/http/openapi-headers';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { AgentService, PUBLISH_POLL_SECONDS, publishJobLocation } from './agent.service';
import { ConversationTestsRequest, PublishRequest } from './dto/agent.request';
import { AgentResponse, ConversationTestsResponse, PublishJobResponse } from './dto/agent.response';

@ApiTags('Agent')
@Controller('api/v1/agent')
export class AgentController {
  constructor(
    private readonly agent: AgentService,
    private readonly conditional: ConditionalGet,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Get the agent' })
  @RequireScope('agent:publish', 'playbook:read')
  @ApiOkResponse({ type: AgentResponse })
  @ApiErrorResponses(401, 403, 429)
  get(@Caller() caller: Principal): Promise<AgentResponse> {
    return this.agent.agent(caller.organizationId);
  }

  @Put('conversation-tests')
  @ApiOperation({ summary: 'Set the conversation tests' })
  @ApiJsonBody(ConversationTestsRequest, {
    tests: [{ name: 'quotes the price', sectionKey: 'pricing', mustContain: ['EUR'], mustNotContain: ['USD'] }],
  })
  @RequireScope('agent:publish')
  @Idempotent()
  @ApiOkResponse({ type: ConversationTestsResponse })
  @ApiErrorResponses(401, 403, 409, 422, 429)
  setTests(@Caller() caller: Principal, @Body() body: ConversationTestsRequest): Promise<ConversationTestsResponse> {
    return this.agent.setTests(caller.organizationId, body);
  }

  @Post('publish-jobs')
  @ApiOperation({ summary: 'Start a publish job' })
  @ApiJsonBody(PublishRequest, { version: 3, confirm: 'publish-to-production' })
  @HttpCode(202)
  @RequireScope('agent:publish')
  @Idempotent()
  @ApiAcceptedResponse({
    type: PublishJobResponse,
    description: 'The publish job; poll its Location.',
    headers: responseHeaders(['Location'], [], { Location: 'The publish job: poll it for its outcome.' }),
  })
  @ApiErrorResponses(401, 403, 409, 422, 429)
  async publish(
    @Caller() caller: Principal,
    @Body() body: PublishRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PublishJobResponse> {
    const job = await this.agent.publish(caller.organizationId, body);
    res.setHeader('Location', publishJobLocation(job.jobId));
    return job;
  }

  @Get('publish-jobs/:job_id')
  @ApiOperation({ summary: 'Poll a publish job' })
  @ApiParam({ name: 'job_id', format: 'uuid' })
  @RequireScope('agent:publish')
  @ApiConditionalGet(PublishJobResponse, 'while queued or running')
  @ApiErrorResponses(401, 403, 404, 422, 429)
  async getJob(
    @Caller() caller: Principal,
    @Param('job_id', ParseUuidPipe) jobId: string,
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PublishJobResponse | undefined> {
    const job = await this.agent.getJob(caller.organizationId, jobId);
    return this.conditional.reply(req, res, job, this.agent.isRunning(job) ? PUBLISH_POLL_SECONDS : null);
  }
}
