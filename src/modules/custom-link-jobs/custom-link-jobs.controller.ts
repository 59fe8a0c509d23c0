import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, RequireScope, type AuthenticatedRequest } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiConditionalGet, ConditionalGet } from '../../common/limits/conditional-get';
import { responseHeaders } from '../../common/http/openapi-headers';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { PaginationQuery } from '../../common/pagination/pagination.query';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { CustomLinkJobsService } from './custom-link-jobs.service';
import {
  jobLocation,
  JobEnvelopeResponse,
  JobItemListResponse,
  JobListResponse,
  JobResponse,
} from './dto/job.response';
import { JobListQuery } from './dto/job-list.query';

@ApiTags('Custom Link jobs')
@Controller('api/v1/custom-link-jobs')
export class CustomLinkJobsController {
  constructor(
    private readonly jobs: CustomLinkJobsService,
    private readonly conditional: ConditionalGet,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List Custom Link jobs' })
  @RequireScope('custom_links:read', 'custom_links:write')
  @ApiOkResponse({ type: JobListResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  list(@Caller() caller: Principal, @Query() query: JobListQuery): Promise<JobListResponse> {
    return this.jobs.list(caller.organizationId, query);
  }

  @Get(':job_id')
  @ApiOperation({ summary: 'Poll a Custom Link job' })
  @ApiParam({ name: 'job_id', format: 'uuid' })
  @RequireScope('custom_links:read', 'custom_links:write')
  @ApiConditionalGet(JobResponse, 'while not terminal')
  @ApiErrorResponses(401, 403, 404, 422, 429)
  async get(
    @Caller() caller: Principal,
    @Param('job_id', ParseUuidPipe) jobId: string,
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JobResponse | undefined> {
    const job = await this.jobs.get(caller.organizationId, jobId);
    return this.conditional.reply(req, res, job, job.pollAfterSeconds);
  }

  @Get(':job_id/items')
  @ApiOperation({ summary: "List a job's items" })
  @ApiParam({ name: 'job_id', format: 'uuid' })
  @RequireScope('custom_links:read', 'custom_links:write')
  @ApiOkResponse({ type: JobItemListResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  items(
    @Caller() caller: Principal,
    @Param('job_id', ParseUuidPipe) jobId: string,
    @Query() page: PaginationQuery,
  ): Promise<JobItemListResponse> {
    return this.jobs.items(caller.organizationId, jobId, page);
  }

  @Post(':job_id/cancel')
  @ApiOperation({ summary: 'Cancel a Custom Link job' })
  @HttpCode(200)
  @ApiParam({ name: 'job_id', format: 'uuid' })
  @RequireScope('custom_links:write')
  @Idempotent()
  @ApiOkResponse({ type: JobResponse })
  @ApiErrorResponses(401, 403, 404, 409, 422, 429)
  cancel(@Caller() caller: Principal, @Param('job_id', ParseUuidPipe) jobId: string): Promise<JobResponse> {
    return this.jobs.cancel(caller.organizationId, jobId);
  }

  @Post(':job_id/retry')
  @ApiOperation({ summary: "Retry a job's failed and cancelled items" })
  @HttpCode(202)
  @ApiParam({ name: 'job_id', format: 'uuid' })
  @RequireScope('custom_links:write')
  @Idempotent()
  @ApiAcceptedResponse({
    type: JobEnvelopeResponse,
    description: 'The retry job; poll its Location.',
    headers: responseHeaders(['Location'], [], { Location: 'The retry job: poll it for progress.' }),
  })
  @ApiErrorResponses(401, 403, 404, 409, 422, 429)
  async retry(
    @Caller() caller: Principal,
    @Param('job_id', ParseUuidPipe) jobId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JobEnvelopeResponse> {
    const job = await this.jobs.retry(caller.organizationId, jobId);
    res.setHeader('Location', jobLocation(job.id));
    return { job };
  }
}
