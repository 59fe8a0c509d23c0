import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { CONTENT_TYPES } from '../exports';
import { AnalyticsService } from './analytics.service';
import { AnalyticsQuery } from './dto/analytics.query';
import { AnalyticsResponse } from './dto/analytics.response';

@ApiTags('Engagement')
@ApiExtraModels(AnalyticsResponse)
@Controller('api/v1')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('analytics')
  @ApiOperation({
    summary: 'Ask an analytics question',
    description:
      'Metrics × one grouping (a time series or a dimension) over a range, filtered, in a time zone (docs/api.md §6.9).',
  })
  @RequireScope('analytics:read')
  @ApiOkResponse({
    description: 'The figures; with format=csv the rows as text/csv (a header `key`, then one column per metric).',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(AnalyticsResponse) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiErrorResponses(401, 403, 422, 429)
  async ask(
    @Caller() caller: Principal,
    @Query() query: AnalyticsQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AnalyticsResponse | string> {
    const answer = await this.analytics.answer(caller.organizationId, query);
    if ('json' in answer) return answer.json;
    res.setHeader('Content-Type', CONTENT_TYPES.csv);
    return answer.csv;
  }
}
