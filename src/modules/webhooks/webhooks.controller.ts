import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, RequireScope } from '../../common/auth/auth.decorators';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/http/api-error-responses.decorator';
import { ApiJsonBody } from '../../common/http/api-json-body.decorator';
import { responseHeaders } from '../../common/http/openapi-headers';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { PaginationQuery } from '../../common/pagination/pagination.query';
import { ParseUuidPipe } from '../../common/validation/parse-uuid.pipe';
import { DeliveryListQuery } from './dto/delivery-list.query';
import { WebhookDeliveryListResponse, WebhookDeliveryResponse } from './dto/webhook-delivery.response';
import { CreateWebhookEndpointRequest, UpdateWebhookEndpointRequest } from './dto/webhook-endpoint.request';
import {
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
} from './dto/webhook-endpoint.response';
import { endpointLocation, WebhookEndpointsService } from './webhook-endpoints.service';

const ENDPOINT_ID = { name: 'endpoint_id', format: 'uuid' };

@ApiTags('Webhooks')
@Controller('api/v1/webhook-endpoints')
export class WebhooksController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Get()
  @ApiOperation({ summary: 'List webhook endpoints' })
  @RequireScope('webhooks:read', 'webhooks:write')
  @ApiOkResponse({ type: WebhookEndpointListResponse })
  @ApiErrorResponses(401, 403, 422, 429)
  list(@Caller() caller: Principal, @Query() query: PaginationQuery): Promise<WebhookEndpointListResponse> {
    return this.endpoints.list(caller.organizationId, query);
  }

  @Post()
  @ApiOperation({ summary: 'Create a webhook endpoint' })
  @ApiJsonBody(CreateWebhookEndpointRequest, {
    url: 'https://crm.example.com/hooks/engagement',
    eventTypes: ['custom_link.opened', 'custom_link_job.finished'],
    description: 'CRM sync',
  })
  @HttpCode(201)
  @RequireScope('webhooks:write')
  @Idempotent()
  @ApiCreatedResponse({
    type: WebhookEndpointWithSecretResponse,
    description: 'The endpoint with its secret (shown only here and on rotation).',
    headers: responseHeaders(['Location'], [], { Location: 'The new webhook endpoint.' }),
  })
  @ApiErrorResponses(401, 403, 409, 422, 429)
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateWebhookEndpointRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WebhookEndpointWithSecretResponse> {
    const endpoint = await this.endpoints.create(caller.organizationId, body);
    res.setHeader('Location', endpointLocation(endpoint.id));
    return endpoint;
  }

  @Get(':endpoint_id')
  @ApiOperation({ summary: 'Get a webhook endpoint' })
  @ApiParam(ENDPOINT_ID)
  @RequireScope('webhooks:read', 'webhooks:write')
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  get(@Caller() caller: Principal, @Param('endpoint_id', ParseUuidPipe) id: string): Promise<WebhookEndpointResponse> {
    return this.endpoints.get(caller.organizationId, id);
  }

  @Patch(':endpoint_id')
  @ApiOperation({ summary: 'Update a webhook endpoint' })
  @ApiJsonBody(UpdateWebhookEndpointRequest, {
    eventTypes: ['custom_link.opened'],
    active: true,
    filter: { campaignIds: ['0192f0c5-8a4e-7c3b-9d2a-000000000001'], linkIds: [] },
  })
  @ApiParam(ENDPOINT_ID)
  @RequireScope('webhooks:write')
  @Idempotent()
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiErrorResponses(401, 403, 404, 409, 422, 429)
  update(
    @Caller() caller: Principal,
    @Param('endpoint_id', ParseUuidPipe) id: string,
    @Body() body: UpdateWebhookEndpointRequest,
  ): Promise<WebhookEndpointResponse> {
    return this.endpoints.update(caller.organizationId, id, body);
  }

  @Delete(':endpoint_id')
  @ApiOperation({ summary: 'Delete a webhook endpoint' })
  @ApiParam(ENDPOINT_ID)
  @HttpCode(204)
  @RequireScope('webhooks:write')
  @Idempotent()
  @ApiNoContentResponse({ description: 'Deleted, with its delivery history.' })
  @ApiErrorResponses(401, 403, 404, 409, 422, 429)
  delete(@Caller() caller: Principal, @Param('endpoint_id', ParseUuidPipe) id: string): Promise<void> {
    return this.endpoints.delete(caller.organizationId, id);
  }

  @Post(':endpoint_id/rotate-secret')
  @ApiOperation({ summary: 'Rotate a webhook endpoint secret' })
  @ApiParam(ENDPOINT_ID)
  @HttpCode(200)
  @RequireScope('webhooks:write')
  @Idempotent()
  @ApiOkResponse({
    type: WebhookEndpointWithSecretResponse,
    description: 'The new secret; the old one keeps signing beside it for 24 h.',
  })
  @ApiErrorResponses(401, 403, 404, 409, 422, 429)
  rotate(
    @Caller() caller: Principal,
    @Param('endpoint_id', ParseUuidPipe) id: string,
  ): Promise<WebhookEndpointWithSecretResponse> {
    return this.endpoints.rotateSecret(caller.organizationId, id);
  }

  @Get(':endpoint_id/deliveries')
  @ApiOperation({ summary: 'List webhook deliveries' })
  @ApiParam(ENDPOINT_ID)
  @RequireScope('webhooks:read', 'webhooks:write')
  @ApiOkResponse({ type: WebhookDeliveryListResponse })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  deliveries(
    @Caller() caller: Principal,
    @Param('endpoint_id', ParseUuidPipe) id: string,
    @Query() query: DeliveryListQuery,
  ): Promise<WebhookDeliveryListResponse> {
    return this.endpoints.deliveries(caller.organizationId, id, query);
  }

  @Post(':endpoint_id/deliveries/:delivery_id/retry')
  @ApiOperation({ summary: 'Send a webhook delivery again' })
  @ApiParam(ENDPOINT_ID)
  @ApiParam({ name: 'delivery_id', format: 'uuid' })
  @HttpCode(202)
  @RequireScope('webhooks:write')
  @Idempotent()
  @ApiAcceptedResponse({
    type: WebhookDeliveryResponse,
    description: 'The new attempt, sent now with the same webhook-id and body.',
  })
  @ApiErrorResponses(401, 403, 404, 409, 422, 429)
  retry(
    @Caller() caller: Principal,
    @Param('endpoint_id', ParseUuidPipe) id: string,
    @Param('delivery_id', ParseUuidPipe) deliveryId: string,
  ): Promise<WebhookDeliveryResponse> {
    return this.endpoints.retry(caller.organizationId, id, deliveryId);
  }
}
