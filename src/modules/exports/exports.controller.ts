import { Body, Controller, Get, Headers, HttpCode, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Caller, RequireScope, type AuthenticatedRequest } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiJsonBody } from '../../common/http/api-json-body.decorator';
import { ApiConditionalGet, ConditionalGet } from '../../common/limits/conditional-get';
import { responseHeaders } from '../../common/http/openapi-headers';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { CreateExportRequest } from './dto/export.request';
import { exportLocation, ExportResponse } from './dto/export.response';
import { ExportsService } from './exports.service';

const EXPORT_ID = { name: 'export_id', format: 'uuid' };
/** The routes take any list's read scope; the service then asks for the exported list's. */
const READ_SCOPES = [
  'sessions:read',
  'people:read',
  'accounts:read',
  'custom_links:read',
  'custom_links:write',
] as const;

/** Whether the client named gzip as acceptable (no Accept-Encoding: plain text, as curl without --compressed expects). */
const acceptsGzip = (req: Request) =>
  req.headers['accept-encoding'] !== undefined && req.acceptsEncodings('gzip', 'identity') === 'gzip';

@ApiTags('Exports')
@Controller('api/v1/exports')
export class ExportsController {
  private readonly logger = new Logger('Exports');

  constructor(
    private readonly exports: ExportsService,
    private readonly conditional: ConditionalGet,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Export a filtered list as CSV or NDJSON' })
  @ApiJsonBody(CreateExportRequest, {
    resource: 'sessions',
    format: 'csv',
    filters: { qualification_status: 'qualified', start_time_from: '2026-01-01T00:00:00Z' },
  })
  @HttpCode(202)
  @RequireScope(...READ_SCOPES)
  @Idempotent({ required: true })
  @ApiAcceptedResponse({
    type: ExportResponse,
    description: 'The export; poll its Location.',
    headers: responseHeaders(['Location'], [], {
      Location: 'The export: poll it until it is completed, then download it.',
    }),
  })
  @ApiErrorResponses(400, 401, 403, 409, 422, 429)
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateExportRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ExportResponse> {
    const created = await this.exports.create(caller, body, idempotencyKey);
    res.setHeader('Location', exportLocation(created.id));
    return created;
  }

  @Get(':export_id')
  @ApiOperation({ summary: 'Poll an export' })
  @ApiParam(EXPORT_ID)
  @RequireScope(...READ_SCOPES)
  @ApiConditionalGet(ExportResponse, 'while queued or processing')
  @ApiErrorResponses(401, 403, 404, 422, 429)
  async get(
    @Caller() caller: Principal,
    @Param('export_id', ParseUuidPipe) id: string,
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ExportResponse | undefined> {
    const found = await this.exports.get(caller, id);
    return this.conditional.reply(
      req,
      res,
      found,
      found.status === 'queued' || found.status === 'processing' ? 2 : null,
    );
  }

  @Get(':export_id/download')
  @ApiOperation({ summary: "Download a completed export's file" })
  @ApiParam(EXPORT_ID)
  @RequireScope(...READ_SCOPES)
  @ApiOkResponse({
    description:
      'The file, streamed: gzip (Content-Encoding: gzip) when Accept-Encoding names it, else plain. 404 until completed and after expiry.',
    content: { 'text/csv': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } },
  })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  async download(
    @Caller() caller: Principal,
    @Param('export_id', ParseUuidPipe) id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const file = await this.exports.file(caller, id);
    const gzip = acceptsGzip(req);
    res.status(200);
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
    res.setHeader('Vary', 'Accept-Encoding');
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    try {
      await (gzip ? pipeline(file.gzip, res) : pipeline(file.gzip, createGunzip(), res));
    } catch (err) {
      // The status line is out: a failure mid-file can only cut the response short.
      this.logger.warn({ exportId: id, err }, 'Export download cut short');
      res.destroy();
    }
  }
}
