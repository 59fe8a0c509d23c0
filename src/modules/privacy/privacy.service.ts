import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { NotFoundError } from '../../common/errors/domain-errors';
import { RequestValidationError, valueError } from '../../common/errors/validation-issue';
import { IdempotencyRecorder } from '../../common/idempotency/idempotency-recorder';
import { Cursors, keysetOf } from '../../common/pagination/cursor';
import type { CursorPageQuery } from '../../common/pagination/pagination.query';
import { phoneDigitsOf } from '../../common/privacy/data-subject';
import { enqueue } from '../../common/queue/job-options';
import { AppConfigService } from '../../config/app-config';
import type { CreateErasureRequest } from './dto/erasure.request';
import {
  erasureLocation,
  toErasureResponse,
  type ErasureListResponse,
  type ErasureResponse,
} from './dto/erasure.response';
import { PRIVACY_QUEUE, RUN_ERASURE, type RunErasurePayload } from './jobs/privacy.queue';
import { PrivacyRepository } from './privacy.repository';

const ERASURE_LIST = 'privacy-erasures';
/** A phone names a person by 5 to 20 digits, whatever its formatting. */
const PHONE_DIGITS = { min: 5, max: 20 };
const IDENTIFIERS = ['email', 'personId', 'phone'] as const;

/** Erasure requests (docs/api.md §18.1): recorded, queued, and read back; the workers run them. */
@Injectable()
export class PrivacyService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly erasures: PrivacyRepository,
    private readonly idempotency: IdempotencyRecorder,
    private readonly cursors: Cursors,
    @InjectQueue(PRIVACY_QUEUE) private readonly queue: Queue<RunErasurePayload>,
    private readonly config: AppConfigService,
  ) {}

  /** 422 unless exactly one identifier, well formed; the erasure recorded and queued (202). */
  async request(organizationId: string, body: CreateErasureRequest): Promise<ErasureResponse> {
    checkIdentifiers(body);
    const created = await this.db.transaction(async (tx) => {
      const row = await this.erasures.insert(tx, organizationId, {
        id: uuidv7(),
        suppress: body.suppress ?? false,
        email: body.email?.trim() ?? null,
        phone: body.phone ?? null,
        personId: body.personId ?? null,
      });
      const answer = toErasureResponse(row);
      await this.idempotency.complete(tx, answer, { location: erasureLocation(row.id) });
      return answer;
    });
    // Not queued (Redis down: 503)? The row is, and the reaper queues it a lease later.
    await enqueue(
      this.queue,
      RUN_ERASURE,
      { organizationId, erasureId: created.id },
      created.id,
      this.config.values.timeouts.redisCommandMs,
    );
    return created;
  }

  async get(organizationId: string, id: string): Promise<ErasureResponse> {
    const row = await this.erasures.find(organizationId, id);
    if (!row) throw NotFoundError.inOrganization('Erasure');
    return toErasureResponse(row);
  }

  async list(organizationId: string, query: CursorPageQuery): Promise<ErasureListResponse> {
    const window = this.cursors.window(ERASURE_LIST, organizationId, query);
    const rows = await this.erasures.listPage(organizationId, window);
    const page = this.cursors.page(ERASURE_LIST, organizationId, query, window, rows, keysetOf);
    return { erasures: page.rows.map(toErasureResponse), limit: query.limit, nextCursor: page.nextCursor };
  }
}

/** Exactly one identifier; a phone of 5..20 digits; suppression only of an email (a person's is one). */
function checkIdentifiers(body: CreateErasureRequest): void {
  const given = IDENTIFIERS.filter((name) => body[name] !== undefined && body[name] !== null);
  if (given.length !== 1)
    throw new RequestValidationError([
      valueError(['body'], body, 'exactly one of email, personId or phone is required'),
    ]);
  if (body.email !== undefined && body.email.trim() === '')
    throw new RequestValidationError([valueError(['body', 'email'], body.email, 'value is not a valid email address')]);
  if (body.phone !== undefined) {
    const digits = phoneDigitsOf(body.phone).length;
    if (digits < PHONE_DIGITS.min || digits > PHONE_DIGITS.max)
      throw new RequestValidationError([
        valueError(
          ['body', 'phone'],
          body.phone,
          `a phone number has ${PHONE_DIGITS.min} to ${PHONE_DIGITS.max} digits`,
        ),
      ]);
    if (body.suppress)
      throw new RequestValidationError([
        valueError(['body', 'suppress'], body.suppress, 'suppression keeps an email: name an email or a personId'),
      ]);
  }
}
