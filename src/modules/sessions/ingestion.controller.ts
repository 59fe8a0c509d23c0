import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiJsonBody } from '../../common/http/api-json-body.decorator';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { IngestSessionRequest, IngestSessionResponse } from './dto/ingest-session.request';
import { IngestionService } from './ingestion.service';

@ApiTags('Ingestion')
@Controller('api/v1/ingest/sessions')
export class IngestionController {
  constructor(private readonly ingestion: IngestionService) {}

  @Put(':session_id')
  @ApiOperation({ summary: 'Ingest (upsert) a session' })
  @ApiJsonBody(IngestSessionRequest, {
    startTime: '2026-11-22T10:00:00.000Z',
    endTime: '2026-11-22T10:12:30.000Z',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    business: 'Analytical Engines',
    buyingIntent: 'high',
    qualificationStatus: 'qualified',
    bookedStatus: 'booked',
    tracking: { utmSource: 'linkedin', geoCountry: 'GB' },
    analysisStatus: 'analyzed',
    transcript: { entries: [{ speaker: 'agent', text: 'Hello Ada!', sequenceNumber: 0 }] },
  })
  @HttpCode(200)
  @ApiParam({ name: 'session_id', format: 'uuid' })
  @RequireScope('sessions:write')
  @Idempotent()
  @ApiOkResponse({ type: IngestSessionResponse, description: 'Upserted; the same body twice changes nothing.' })
  @ApiErrorResponses(401, 403, 409, 422, 429)
  ingest(
    @Caller() caller: Principal,
    @Param('session_id', ParseUuidPipe) sessionId: string,
    @Body() body: IngestSessionRequest,
  ): Promise<IngestSessionResponse> {
    return this.ingestion.ingest(caller.organizationId, sessionId, body);
  }
}
