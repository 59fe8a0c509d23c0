import { Injectable, Logger } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { observeExportCompleted, observeExportFailed, type ExportRun } from '../../../common/metrics/work-metrics';
import { JobLeases, type LeaseTerms } from '../../../common/queue/job-leases';
import type { LapsedJob } from '../../../common/queue/job-reaper';
import { validateNestedQuery } from '../../../common/validation/request-validator';
import { NotFoundError } from '../../../common/errors/domain-errors';
import type { PaginationQuery } from '../../../common/pagination/pagination.query';
import { InjectPort, type Keyed } from '../../../common/wiring/port';
import { EXPORT_SOURCES, type ExportResource, type ExportSource } from '../export-sources';
import { ExportsRepository, type ExportRow } from '../exports.repository';
import { ChunkedGzip } from '../rules/chunked-gzip';
import { columnsOf } from '../rules/columns';
import { csvLine, csvRow, ndjsonRow } from '../rules/export-format';

/** Completed and failed exports are kept this long, then gone (404). */
export const EXPORT_TTL_MS = 24 * 60 * 60 * 1000;
/** Rows per page of the list read; with one chunk, what a run holds in memory. */
const PAGE_ROWS = 1000;
/** Gzip bytes per stored chunk. */
const CHUNK_BYTES = 1024 * 1024;
const SWEEP_BATCH = 500;

/** What a run came to; `superseded`: another run took the export over, and this one stopped. */
type RunOutcome =
  { status: 'completed'; rows: number; bytes: number } | { status: 'failed' } | { status: 'superseded' };
const FAILED: RunOutcome = { status: 'failed' };
const SUPERSEDED: RunOutcome = { status: 'superseded' };

/**
 * Writes export files on the workers. A run starts the file over (a run id of its own; the chunks
 * of runs before it are deleted), reads the list page by page through its cursor, and stores gzip
 * chunks as they fill; a run whose lease was taken over stops at its next chunk, so a job run twice
 * leaves one whole file. Exports nobody runs come back through the JobReaper.
 */
@Injectable()
export class ExportRunner {
  private readonly logger = new Logger('ExportRunner');

  constructor(
    private readonly exports: ExportsRepository,
    @InjectPort(EXPORT_SOURCES) private readonly sources: Keyed<ExportResource, ExportSource>,
    private readonly leases: JobLeases,
  ) {}

  async run(organizationId: string, exportId: string): Promise<void> {
    const runId = uuidv7();
    const started = Date.now();
    const row = await this.exports.startRun(organizationId, exportId, runId, this.leases.terms());
    if (!row) return;
    const outcome = await this.leases.hold(
      (lease) => this.exports.renewLease(organizationId, exportId, runId, lease),
      () => this.write(organizationId, row, runId),
    );
    const run: ExportRun = { resource: row.resource, format: row.format, durationMs: Date.now() - started };
    if (outcome.status === 'completed') observeExportCompleted(run, outcome.rows, outcome.bytes);
    else if (outcome.status === 'failed') observeExportFailed(run);
  }

  /** Unfinished exports whose lease lapsed, for the JobReaper (ReapableJobs.reclaimLapsed). */
  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return this.exports.reclaimLapsed(lease, limit);
  }

  /** Deletes expired exports with their files; resolves how many. */
  async sweepExpired(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.exports.deleteExpired(SWEEP_BATCH);
      deleted += batch;
      if (batch < SWEEP_BATCH) return deleted;
    }
  }

  private async write(organizationId: string, row: ExportRow, runId: string): Promise<RunOutcome> {
    const source = this.sources.of(row.resource as ExportResource);
    const { value: query, issues } = validateNestedQuery(source.filters, row.filters, ['body', 'filters']);
    if (issues.length > 0) {
      // Filters valid when the export was made and no longer (the list's rules changed): nothing to write.
      this.logger.warn({ exportId: row.id }, 'Export filters no longer validate; the export failed');
      await this.exports.fail(organizationId, row.id, runId, EXPORT_TTL_MS);
      return FAILED;
    }
    try {
      return await this.writeFile(organizationId, row, runId, source, query);
    } catch (err) {
      // The list itself refuses (its link was deleted meanwhile): no attempt will do better.
      if (!(err instanceof NotFoundError)) throw err;
      await this.exports.fail(organizationId, row.id, runId, EXPORT_TTL_MS);
      return FAILED;
    }
  }

  private async writeFile(
    organizationId: string,
    row: ExportRow,
    runId: string,
    source: ExportSource,
    query: PaginationQuery,
  ): Promise<RunOutcome> {
    const file = new ChunkedGzip(CHUNK_BYTES, (seq, data) =>
      this.exports.appendChunk(organizationId, row.id, runId, seq, data),
    );
    const columns = row.format === 'csv' ? columnsOf(source.item) : [];
    if (row.format === 'csv' && !(await file.write(csvLine(columns)))) return SUPERSEDED;
    let rowCount = 0;
    let cursor: string | undefined;
    do {
      const page = await source.page(
        organizationId,
        Object.assign(query, { limit: PAGE_ROWS, offset: 0, cursor, offsetGiven: undefined }),
      );
      const text = page.items.map((item) => (row.format === 'csv' ? csvRow(item, columns) : ndjsonRow(item))).join('');
      if (!(await file.write(text))) return SUPERSEDED;
      rowCount += page.items.length;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    if (!(await file.end()) || !(await this.exports.complete(organizationId, row.id, runId, rowCount, EXPORT_TTL_MS)))
      return SUPERSEDED;
    return { status: 'completed', rows: rowCount, bytes: file.stored };
  }
}
