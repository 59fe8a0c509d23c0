import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Readable } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import type { Principal } from '../../common/auth/principal';
import { grantsAny } from '../../common/auth/scopes';
import { IdempotencyKeyRequiredError, MissingScopeError, NotFoundError } from '../../common/errors/domain-errors';
import type { PaginationQuery } from '../../common/pagination/pagination.query';
import { enqueue } from '../../common/queue/job-options';
import { validateNestedQuery } from '../../common/validation/request-validator';
import { RequestValidationError, valueError, type ValidationIssue } from '../../common/errors/validation-issue';
import { InjectPort, type Keyed } from '../../common/wiring/port';
import { AppConfigService } from '../../config/app-config';
import type { CreateExportRequest } from './dto/export.request';
import { toExportResponse, type ExportResponse } from './dto/export.response';
import { EXPORT_SOURCES, type ExportResource, type ExportSource } from './export-sources';
import { ExportsRepository, type ExportRow } from './exports.repository';
import { CONTENT_TYPES, type ExportFormat } from './rules/export-format';
import { EXPORTS_QUEUE, RUN_EXPORT, type RunExportPayload } from './jobs/exports.queue';

const NOT_FOUND = 'Export';
/** Page parameters are the export's to choose: the file holds the whole filtered list. */
const PAGE_PARAMETERS = new Set(['limit', 'offset', 'cursor']);

/** A completed export's file: its chunks as stored (gzip), one at a time. */
export interface ExportFile {
  contentType: string;
  filename: string;
  gzip: Readable;
}

@Injectable()
export class ExportsService {
  constructor(
    private readonly exports: ExportsRepository,
    @InjectPort(EXPORT_SOURCES) private readonly sources: Keyed<ExportResource, ExportSource>,
    @InjectQueue(EXPORTS_QUEUE) private readonly queue: Queue<RunExportPayload>,
    private readonly config: AppConfigService,
  ) {}

  /** 403 without the list's read scope, 422 for filters its GET would refuse (or naming what is not there), 400 without an Idempotency-Key. */
  async create(
    caller: Principal,
    body: CreateExportRequest,
    idempotencyKey: string | undefined,
  ): Promise<ExportResponse> {
    const source = this.sources.of(body.resource);
    if (!grantsAny(caller.scopes, source.scopes)) throw new MissingScopeError();
    const filters = body.filters ?? {};
    const query = checkedFilters(source, filters);
    await source.check?.(caller.organizationId, query);
    if (!idempotencyKey) throw new IdempotencyKeyRequiredError();
    const row = await this.exports.insert(caller.organizationId, uuidv7(), body.resource, body.format, filters);
    // Not queued (Redis down: 503)? The row is, and the reaper queues it a lease later.
    await enqueue(
      this.queue,
      RUN_EXPORT,
      { organizationId: caller.organizationId, exportId: row.id },
      row.id,
      this.config.values.timeouts.redisCommandMs,
    );
    return toExportResponse(row);
  }

  async get(caller: Principal, id: string): Promise<ExportResponse> {
    return toExportResponse(await this.readable(caller, id));
  }

  /** The file of a completed export; 404 before completion, as after expiry. */
  async file(caller: Principal, id: string): Promise<ExportFile> {
    const row = await this.readable(caller, id);
    if (row.status !== 'completed' || !row.run_id) throw NotFoundError.inOrganization(NOT_FOUND);
    const format = row.format as ExportFormat;
    return {
      contentType: CONTENT_TYPES[format],
      filename: `${row.resource}-${row.id}.${format}`,
      gzip: Readable.from(this.exports.chunks(caller.organizationId, row.id, row.run_id)),
    };
  }

  /** The organization's export, seen by a key that may read its resource. */
  private async readable(caller: Principal, id: string): Promise<ExportRow> {
    const row = await this.exports.find(caller.organizationId, id);
    if (!row) throw NotFoundError.inOrganization(NOT_FOUND);
    if (!grantsAny(caller.scopes, this.sources.of(row.resource as ExportResource).scopes))
      throw new MissingScopeError();
    return row;
  }
}

/** The filters as the list's GET validates its query, located at ["body","filters",name]. */
function checkedFilters(source: ExportSource, filters: Record<string, unknown>): PaginationQuery {
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(filters)) {
    if (PAGE_PARAMETERS.has(name))
      issues.push(valueError(['body', 'filters', name], value, 'an export holds the whole list: no page parameters'));
    else if (typeof value !== 'string')
      issues.push({
        type: 'string_type',
        loc: ['body', 'filters', name],
        msg: 'Input should be a valid string',
        input: value,
      });
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
  const { value, issues: invalid } = validateNestedQuery(source.filters, filters, ['body', 'filters']);
  if (invalid.length > 0) throw new RequestValidationError(invalid);
  return value;
}
