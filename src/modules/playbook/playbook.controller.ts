import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiJsonBody } from '../../common/http/api-json-body.decorator';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { PaginationQuery } from '../../common/pagination/pagination.query';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import {
  ApplySuggestionsRequest,
  CreateSuggestionsRequest,
  PreviewRequest,
  PutPlaybookRequest,
} from './dto/playbook.request';
import {
  ApplyResponse,
  PlaybookResponse,
  PreviewResponse,
  SuggestionGroupListResponse,
  SuggestionGroupResponse,
} from './dto/playbook.response';
import { PlaybookService } from './playbook.service';

@ApiTags('Playbook')
@Controller('api/v1/playbook')
export class PlaybookController {
  constructor(private readonly playbook: PlaybookService) {}

  @Get()
  @ApiOperation({ summary: 'Get the Playbook' })
  @RequireScope('playbook:read', 'playbook:write')
  @ApiOkResponse({ type: PlaybookResponse })
  @ApiErrorResponses(401, 403, 429)
  get(@Caller() caller: Principal): Promise<PlaybookResponse> {
    return this.playbook.get(caller.organizationId);
  }

  @Put()
  @ApiOperation({ summary: 'Replace the staging Playbook' })
  @ApiJsonBody(PutPlaybookRequest, {
    sections: [{ key: 'pricing', title: 'Pricing', content: 'Plans start at 99 EUR a month.' }],
  })
  @RequireScope('playbook:write')
  @Idempotent()
  @ApiOkResponse({ type: PlaybookResponse, description: 'The new staging version.' })
  @ApiErrorResponses(401, 403, 409, 422, 429)
  put(@Caller() caller: Principal, @Body() body: PutPlaybookRequest): Promise<PlaybookResponse> {
    return this.playbook.put(caller.organizationId, body);
  }

  @Post('suggestions')
  @ApiOperation({ summary: 'Store a suggestion group' })
  @ApiJsonBody(CreateSuggestionsRequest, {
    changes: [
      {
        changeId: 'c1',
        sectionKey: 'pricing',
        operation: 'replace',
        title: 'Pricing',
        content: 'Plans start at 89 EUR a month.',
        rationale: 'Prospects asked about the new price.',
      },
    ],
  })
  @HttpCode(201)
  @RequireScope('playbook:write')
  @Idempotent()
  @ApiCreatedResponse({ type: SuggestionGroupResponse })
  @ApiErrorResponses(401, 403, 409, 422, 429)
  createGroup(@Caller() caller: Principal, @Body() body: CreateSuggestionsRequest): Promise<SuggestionGroupResponse> {
    return this.playbook.createGroup(caller.organizationId, body);
  }

  @Get('suggestions')
  @ApiOperation({ summary: 'List suggestion groups' })
  @RequireScope('playbook:read', 'playbook:write')
  @ApiOkResponse({ type: SuggestionGroupListResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  listGroups(@Caller() caller: Principal, @Query() page: PaginationQuery): Promise<SuggestionGroupListResponse> {
    return this.playbook.listGroups(caller.organizationId, page.limit, page.offset);
  }

  @Get('suggestions/:group_id')
  @ApiOperation({ summary: 'Get a suggestion group' })
  @ApiParam({ name: 'group_id', format: 'uuid' })
  @RequireScope('playbook:read', 'playbook:write')
  @ApiOkResponse({ type: SuggestionGroupResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  getGroup(
    @Caller() caller: Principal,
    @Param('group_id', ParseUuidPipe) groupId: string,
  ): Promise<SuggestionGroupResponse> {
    return this.playbook.getGroup(caller.organizationId, groupId);
  }

  @Post('suggestions/:group_id/preview')
  @ApiOperation({ summary: 'Preview suggestions' })
  @ApiJsonBody(PreviewRequest, {
    changeIds: ['c1'],
    edits: [{ changeId: 'c1', content: 'Plans start at 89 EUR a month, billed yearly.' }],
  })
  @HttpCode(200)
  @ApiParam({ name: 'group_id', format: 'uuid' })
  @RequireScope('playbook:write')
  @Idempotent()
  @ApiOkResponse({
    type: PreviewResponse,
    description: 'Nothing is applied; edits store new wording and raise generationRevision.',
  })
  @ApiErrorResponses(401, 403, 404, 409, 422, 429)
  preview(
    @Caller() caller: Principal,
    @Param('group_id', ParseUuidPipe) groupId: string,
    @Body() body: PreviewRequest,
  ): Promise<PreviewResponse> {
    return this.playbook.preview(caller.organizationId, groupId, body);
  }

  @Post('suggestions/:group_id/apply')
  @ApiOperation({ summary: 'Apply suggestions' })
  @ApiJsonBody(ApplySuggestionsRequest, {
    changeIds: ['c1'],
    expectedSectionsEtag: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    expectedGenerationRevision: 0,
  })
  @HttpCode(200)
  @ApiParam({ name: 'group_id', format: 'uuid' })
  @RequireScope('playbook:write')
  @Idempotent()
  @ApiOkResponse({ type: ApplyResponse })
  @ApiErrorResponses(401, 403, 404, 409, 422, 429, 503)
  apply(
    @Caller() caller: Principal,
    @Param('group_id', ParseUuidPipe) groupId: string,
    @Body() body: ApplySuggestionsRequest,
  ): Promise<ApplyResponse> {
    return this.playbook.apply(caller.organizationId, groupId, body);
  }
}
