import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiJsonBody } from '../../common/http/api-json-body.decorator';
import { responseHeaders } from '../../common/http/openapi-headers';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { CursorPageQuery } from '../../common/pagination/pagination.query';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { CreateErasureRequest } from './dto/erasure.request';
import { erasureLocation, ErasureListResponse, ErasureResponse } from './dto/erasure.response';
import { PrivacyService } from './privacy.service';

@ApiTags('Privacy')
@Controller('api/v1/privacy/erasures')
export class ErasuresController {
  constructor(private readonly privacy: PrivacyService) {}

  @Post()
  @ApiOperation({
    summary: 'Erase a person everywhere',
    description:
      'Exactly one of email, personId or phone. The erasure runs as a job: poll its Location until completed (docs/api.md §18).',
  })
  @ApiJsonBody(CreateErasureRequest, { email: 'prospect@example.com', suppress: true })
  @HttpCode(202)
  @RequireScope('privacy:write')
  @Idempotent()
  @ApiAcceptedResponse({
    type: ErasureResponse,
    description: 'The erasure, queued.',
    headers: responseHeaders(['Location'], [], { Location: 'The erasure: poll it until it is completed.' }),
  })
  @ApiErrorResponses(401, 403, 409, 422, 429)
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateErasureRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ErasureResponse> {
    const created = await this.privacy.request(caller.organizationId, body);
    res.setHeader('Location', erasureLocation(created.id));
    return created;
  }

  @Get()
  @ApiOperation({ summary: 'List erasures', description: 'Newest first; paged by cursor only.' })
  @RequireScope('privacy:read', 'privacy:write')
  @ApiOkResponse({ type: ErasureListResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  list(@Caller() caller: Principal, @Query() query: CursorPageQuery): Promise<ErasureListResponse> {
    return this.privacy.list(caller.organizationId, query);
  }

  @Get(':erasure_id')
  @ApiOperation({ summary: 'Poll an erasure' })
  @ApiParam({ name: 'erasure_id', format: 'uuid' })
  @RequireScope('privacy:read', 'privacy:write')
  @ApiOkResponse({ type: ErasureResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  get(@Caller() caller: Principal, @Param('erasure_id', ParseUuidPipe) id: string): Promise<ErasureResponse> {
    return this.privacy.get(caller.organizationId, id);
  }
}
