import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { DataSource } from 'typeorm';
import { NotFoundError } from '../../common/errors/domain-errors';
import { IdempotencyRecorder } from '../../common/idempotency/idempotency-recorder';
import { Cursors, keysetOf } from '../../common/pagination/cursor';
import type { PaginationQuery } from '../../common/pagination/pagination.query';
import { JobLeases } from '../../common/queue/job-leases';
import { enqueue } from '../../common/queue/job-options';
import { RequestValidationError, valueError, type ValidationIssue } from '../../common/errors/validation-issue';
import { AppConfigService } from '../../config/app-config';
import { lockNames } from '../../common/database/advisory-locks';
import type { DeliveryListQuery } from './dto/delivery-list.query';
import { toDeliveryResponse, toEndpointResponse, withSecret } from './dto/mapping';
import type { WebhookDeliveryListResponse, WebhookDeliveryResponse } from './dto/webhook-delivery.response';
import type {
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookEndpointFilterInput,
} from './dto/webhook-endpoint.request';
import type {
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
} from './dto/webhook-endpoint.response';
import { SEND_DELIVERY, WEBHOOK_DELIVERIES_QUEUE, type SendDeliveryPayload } from './jobs/webhooks.queue';
import { endpointUrlProblem } from './endpoint-url';
import { isEmptyFilter, normalizeFilter, type EndpointFilter } from './rules/endpoint-filter';
import { newSecret } from './rules/signing';
import { MAX_ENDPOINTS_PER_ORGANIZATION } from './webhook-event-types';
import { WebhooksRepository } from './webhooks.repository';

/** How long a rotated-out secret keeps signing beside the new one. */
const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export const endpointLocation = (id: string) => `/api/v1/webhook-endpoints/${id}`;

/** The endpoints list's name in its cursors' signature. */
const ENDPOINT_LIST = 'webhook-endpoints';

const endpointNotFound = () => NotFoundError.inOrganization('Webhook endpoint');
const deliveryNotFound = () => NotFoundError.inOrganization('Webhook delivery');

/** Webhook endpoints, their secrets and their delivery history (issue 20 point 1). */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(WEBHOOK_DELIVERIES_QUEUE) private readonly queue: Queue<SendDeliveryPayload>,
    private readonly webhooks: WebhooksRepository,
    private readonly idempotency: IdempotencyRecorder,
    private readonly leases: JobLeases,
    private readonly config: AppConfigService,
    private readonly cursors: Cursors,
  ) {}

  async create(organizationId: string, body: CreateWebhookEndpointRequest): Promise<WebhookEndpointWithSecretResponse> {
    const filter = await this.checked(body.url, body.filter);
    return this.db.transaction(async (tx) => {
      // One creation at a time per organization, so the 20-endpoint limit holds under concurrency.
      await lockNames(tx, [`webhook-endpoints:${organizationId}`]);
      if ((await this.webhooks.countEndpoints(tx, organizationId)) >= MAX_ENDPOINTS_PER_ORGANIZATION) {
        throw new RequestValidationError([
          valueError(['body'], body, `an organization has at most ${MAX_ENDPOINTS_PER_ORGANIZATION} webhook endpoints`),
        ]);
      }
      const row = await this.webhooks.insertEndpoint(tx, organizationId, {
        url: body.url,
        eventTypes: unique(body.eventTypes),
        description: body.description ?? null,
        secret: newSecret(),
        filter: filter ?? null,
      });
      const created = withSecret(row);
      await this.idempotency.complete(tx, created, { location: endpointLocation(row.id) });
      return created;
    });
  }

  async list(organizationId: string, query: PaginationQuery): Promise<WebhookEndpointListResponse> {
    const window = this.cursors.window(ENDPOINT_LIST, organizationId, query);
    const { rows, total } = await this.webhooks.listEndpoints(organizationId, window);
    const page = this.cursors.page(ENDPOINT_LIST, organizationId, query, window, rows, keysetOf);
    return {
      webhookEndpoints: page.rows.map(toEndpointResponse),
      total,
      limit: query.limit,
      offset: page.offset,
      nextCursor: page.nextCursor,
    };
  }

  async get(organizationId: string, id: string): Promise<WebhookEndpointResponse> {
    const row = await this.webhooks.endpoint(organizationId, id);
    if (!row) throw endpointNotFound();
    return toEndpointResponse(row);
  }

  async update(
    organizationId: string,
    id: string,
    body: UpdateWebhookEndpointRequest,
  ): Promise<WebhookEndpointResponse> {
    const filter = await this.checked(body.url ?? undefined, body.filter);
    return this.db.transaction(async (tx) => {
      const row = await this.webhooks.updateEndpoint(tx, organizationId, id, {
        url: body.url ?? undefined,
        eventTypes: body.eventTypes ? unique(body.eventTypes) : undefined,
        description: body.description,
        active: body.active ?? undefined,
        filter,
      });
      if (!row) throw endpointNotFound();
      const updated = toEndpointResponse(row);
      await this.idempotency.complete(tx, updated);
      return updated;
    });
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await this.webhooks.deleteEndpoint(tx, organizationId, id))) throw endpointNotFound();
      await this.idempotency.complete(tx, undefined);
    });
  }

  async rotateSecret(organizationId: string, id: string): Promise<WebhookEndpointWithSecretResponse> {
    return this.db.transaction(async (tx) => {
      const row = await this.webhooks.rotateSecret(tx, organizationId, id, newSecret(), SECRET_OVERLAP_MS);
      if (!row) throw endpointNotFound();
      const rotated = withSecret(row);
      await this.idempotency.complete(tx, rotated);
      return rotated;
    });
  }

  async deliveries(
    organizationId: string,
    endpointId: string,
    query: DeliveryListQuery,
  ): Promise<WebhookDeliveryListResponse> {
    if (!(await this.webhooks.endpoint(organizationId, endpointId))) throw endpointNotFound();
    // The endpoint is in the list's name: a cursor of one endpoint's deliveries is refused on another's.
    const list = `webhook-deliveries:${endpointId.toLowerCase()}`;
    const window = this.cursors.window(list, organizationId, query);
    const { rows, total } = await this.webhooks.listDeliveries(
      organizationId,
      endpointId,
      query.status?.length ? query.status : null,
      window,
    );
    const page = this.cursors.page(list, organizationId, query, window, rows, keysetOf);
    return {
      deliveries: page.rows.map(toDeliveryResponse),
      total,
      limit: query.limit,
      offset: page.offset,
      nextCursor: page.nextCursor,
    };
  }

  /** Sends a delivery's message again now: a new attempt with the same webhook-id and body. */
  async retry(organizationId: string, endpointId: string, deliveryId: string): Promise<WebhookDeliveryResponse> {
    if (!(await this.webhooks.endpoint(organizationId, endpointId))) throw endpointNotFound();
    const attempt = await this.db.transaction(async (tx) => {
      const of = await this.webhooks.delivery(organizationId, endpointId, deliveryId, tx);
      if (!of) throw deliveryNotFound();
      const row = toDeliveryResponse(
        await this.webhooks.insertManualAttempt(tx, organizationId, of, this.leases.terms()),
      );
      await this.idempotency.complete(tx, row);
      return row;
    });
    // Not queued (Redis down): the reaper queues the attempt once its lease lapses.
    await enqueue(
      this.queue,
      SEND_DELIVERY,
      { organizationId, deliveryId: attempt.id },
      attempt.id,
      this.config.values.timeouts.redisCommandMs,
    ).catch(() => undefined);
    return attempt;
  }

  /**
   * The rules no decorator states, each failing field reported in one answer: the URL (§16.5) and a
   * filter that names at least one id (§16.7). Returns the filter to store: undefined when none was
   * given, null to have none.
   */
  private async checked(
    url: string | undefined,
    given: WebhookEndpointFilterInput | null | undefined,
  ): Promise<EndpointFilter | null | undefined> {
    const issues: ValidationIssue[] = [];
    const urlProblem = url === undefined ? null : await endpointUrlProblem(url, this.config.values.webhooks);
    if (urlProblem) issues.push(valueError(['body', 'url'], url, urlProblem));
    const filter = given ? normalizeFilter(given) : given;
    if (filter && isEmptyFilter(filter)) issues.push(valueError(['body', 'filter'], given, EMPTY_FILTER));
    if (issues.length > 0) throw new RequestValidationError(issues);
    return filter;
  }
}

const EMPTY_FILTER = 'a filter names at least one campaign or link id; null removes the filter';

function unique(types: string[]): string[] {
  return [...new Set(types)];
}
