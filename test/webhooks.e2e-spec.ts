import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { WebhookOutbox } from '../src/modules/webhooks';
import { detailOf } from './support/api-responses';
import type {
  JobEnvelope,
  JobItemPage,
  Link,
  PublishJob,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointPage,
  WebhookEndpointWithSecret,
} from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { folded, sameLink } from './support/fold';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { startReceiver, type Received } from './support/webhook-receiver';
import { createTestApp, eventually, readUntil, type Tenant, type TestApp } from './support/test-app';

/** Signed webhooks (issue 20 point 1): endpoints CRUD, the outbox, delivery, retries and replays, checked by a local receiver. */

const ENDPOINTS = '/api/v1/webhook-endpoints';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const NOT_FOUND = { detail: "Webhook endpoint not found for the key's organization." };
const FAST = { RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' };

const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id'] as string,
    'webhook-timestamp': r.headers['webhook-timestamp'] as string,
    'webhook-signature': r.headers['webhook-signature'] as string,
  });

describe('webhooks', () => {
  let t: TestApp;
  let strict: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  let isolated: IsolatedServices;

  beforeAll(async () => {
    // Its deliveries go to local receivers: a database and queues of its own (isolated-database.ts).
    isolated = await isolatedServices('webhooks');
    t = await createTestApp({
      ...isolated.env,
      APP_ROLE: 'all',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_DISPATCH_INTERVAL_MS: '50',
      ...FAST,
    });
    strict = await createTestApp({ ...isolated.env, APP_ROLE: 'api', ...FAST });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await strict.close();
    await t.close();
    await isolated.drop();
  });

  const post = (app: TestApp, who: Tenant, body: unknown) =>
    request(app.server)
      .post(ENDPOINTS)
      .set('x-api-key', who.key)
      .send(body as object);
  const createEndpoint = async (who: Tenant, eventTypes = ['custom_link.opened']) =>
    (await post(t, who, { url: receiver.url, eventTypes }).expect(201)).body as WebhookEndpointWithSecret;
  /** Records a message as a producer does: inside a transaction of its own. */
  const record = (who: Tenant, data: unknown) =>
    t.app
      .get(DataSource)
      .transaction((tx) => t.app.get(WebhookOutbox).record(tx, who.organizationId, 'custom_link.opened', data));
  const receivedFor = (marker: string) => receiver.received.filter((r) => r.body.includes(marker));
  const deliveries = async (who: Tenant, endpointId: string, query = '') =>
    (await request(t.server).get(`${ENDPOINTS}/${endpointId}/deliveries${query}`).set('x-api-key', who.key).expect(200))
      .body as WebhookDeliveryPage;

  describe('endpoints', () => {
    it('creates with 201, Location and a whsec_ secret shown only on creation and rotation', async () => {
      const who = await t.createTenant();
      const res = await post(t, who, {
        url: receiver.url,
        eventTypes: ['custom_link.opened', 'session.analyzed'],
        description: 'CRM',
      }).expect(201);
      const created = res.body as WebhookEndpointWithSecret;
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        url: receiver.url,
        eventTypes: ['custom_link.opened', 'session.analyzed'],
        description: 'CRM',
        active: true,
        filter: null,
        secret: expect.stringMatching(SECRET),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(res.headers.location).toBe(`${ENDPOINTS}/${created.id}`);

      const got = await request(t.server).get(`${ENDPOINTS}/${created.id}`).set('x-api-key', who.key).expect(200);
      expect(got.body).not.toHaveProperty('secret');
      const listed = await request(t.server).get(ENDPOINTS).set('x-api-key', who.key).expect(200);
      expect(listed.body).toEqual({ webhookEndpoints: [got.body], total: 1, limit: 50, offset: 0, nextCursor: null });
      expect(JSON.stringify(listed.body)).not.toContain(created.secret);

      const rotated = await request(t.server)
        .post(`${ENDPOINTS}/${created.id}/rotate-secret`)
        .set('x-api-key', who.key)
        .expect(200);
      expect((rotated.body as WebhookEndpointWithSecret).secret).toMatch(SECRET);
      expect((rotated.body as WebhookEndpointWithSecret).secret).not.toBe(created.secret);
    });

    it('lists newest first, patches any field, deletes with 204', async () => {
      const who = await t.createTenant();
      const first = await createEndpoint(who);
      const second = await createEndpoint(who);
      const listed = await request(t.server).get(ENDPOINTS).set('x-api-key', who.key).expect(200);
      expect((listed.body as WebhookEndpointPage).webhookEndpoints.map((e) => e.id)).toEqual([second.id, first.id]);

      const patched = await request(t.server)
        .patch(`${ENDPOINTS}/${first.id}`)
        .set('x-api-key', who.key)
        .send({ eventTypes: ['custom_link.lead'], description: 'x', active: false })
        .expect(200);
      expect(patched.body).toMatchObject({
        id: first.id,
        eventTypes: ['custom_link.lead'],
        description: 'x',
        active: false,
        url: receiver.url,
      });
      const cleared = await request(t.server)
        .patch(`${ENDPOINTS}/${first.id}`)
        .set('x-api-key', who.key)
        .send({ description: null })
        .expect(200);
      expect(cleared.body).toMatchObject({ description: null, active: false });

      await request(t.server).delete(`${ENDPOINTS}/${first.id}`).set('x-api-key', who.key).expect(204);
      await request(t.server).get(`${ENDPOINTS}/${first.id}`).set('x-api-key', who.key).expect(404, NOT_FOUND);
      await request(t.server).delete(`${ENDPOINTS}/${first.id}`).set('x-api-key', who.key).expect(404, NOT_FOUND);
    });

    it("answers 404 for another organization's endpoint, on every route", async () => {
      const [owner, other] = [await t.createTenant(), await t.createTenant()];
      const { id } = await createEndpoint(owner);
      const as = (r: request.Test) => r.set('x-api-key', other.key).expect(404, NOT_FOUND);
      await as(request(t.server).get(`${ENDPOINTS}/${id}`));
      await as(request(t.server).patch(`${ENDPOINTS}/${id}`).send({ active: false }));
      await as(request(t.server).delete(`${ENDPOINTS}/${id}`));
      await as(request(t.server).post(`${ENDPOINTS}/${id}/rotate-secret`));
      await as(request(t.server).get(`${ENDPOINTS}/${id}/deliveries`));
      await as(request(t.server).post(`${ENDPOINTS}/${id}/deliveries/${id}/retry`));
      await request(t.server).get(`${ENDPOINTS}/${id}`).set('x-api-key', owner.key).expect(200);
    });

    it('needs webhooks:read to read and webhooks:write to change', async () => {
      const who = await t.createTenant();
      const reader = {
        organizationId: who.organizationId,
        key: await t.createKey(who.organizationId, ['webhooks:read']),
      };
      const stranger = {
        organizationId: who.organizationId,
        key: await t.createKey(who.organizationId, ['custom_links:write']),
      };
      const writer = {
        organizationId: who.organizationId,
        key: await t.createKey(who.organizationId, ['webhooks:write']),
      };
      const { id } = await createEndpoint(writer);
      await request(t.server).get(ENDPOINTS).set('x-api-key', reader.key).expect(200);
      await request(t.server).get(`${ENDPOINTS}/${id}`).set('x-api-key', writer.key).expect(200);
      await post(t, reader, { url: receiver.url, eventTypes: ['custom_link.opened'] }).expect(403);
      await request(t.server).post(`${ENDPOINTS}/${id}/rotate-secret`).set('x-api-key', reader.key).expect(403);
      await request(t.server).get(ENDPOINTS).set('x-api-key', stranger.key).expect(403);
    });

    it('refuses a non-https URL, a private or loopback host, an unknown type and the 21st endpoint with 422', async () => {
      const who = await strict.createTenant();
      const urlIssue = async (url: string) => {
        const res = await post(strict, who, { url, eventTypes: ['custom_link.opened'] }).expect(422);
        return detailOf(res)[0];
      };
      for (const url of [
        'http://93.184.215.14/hook',
        'https://127.0.0.1/hook',
        'https://10.1.2.3/hook',
        'https://[::1]/hook',
        'https://169.254.169.254/latest',
        'https://localhost/hook',
      ]) {
        expect(await urlIssue(url)).toMatchObject({ type: 'value_error', loc: ['body', 'url'] });
      }
      const unknown = await post(strict, who, {
        url: 'https://93.184.215.14/hook',
        eventTypes: ['custom_link.opened', 'link.exploded'],
      }).expect(422);
      expect(detailOf(unknown)).toEqual([expect.objectContaining({ type: 'enum', loc: ['body', 'eventTypes', 1] })]);
      await request(strict.server)
        .patch(`${ENDPOINTS}/${(await createEndpointOn(strict, who)).id}`)
        .set('x-api-key', who.key)
        .send({ url: 'https://192.168.0.1/' })
        .expect(422);

      for (let i = 1; i < 20; i++) await createEndpointOn(strict, who);
      const tooMany = await post(strict, who, {
        url: 'https://93.184.215.14/hook',
        eventTypes: ['session.analyzed'],
      }).expect(422);
      expect(detailOf(tooMany)).toEqual([expect.objectContaining({ type: 'value_error', loc: ['body'] })]);
      expect(
        (
          (await request(strict.server).get(ENDPOINTS).set('x-api-key', who.key).expect(200))
            .body as WebhookEndpointPage
        ).total,
      ).toBe(20);
    });

    it("refuses a port the workers' egress does not open (WEBHOOK_ALLOWED_PORTS, 443 and 80 by default) with 422, on create and update", async () => {
      const who = await strict.createTenant();
      const refused = await post(strict, who, {
        url: 'https://93.184.215.14:8443/hook',
        eventTypes: ['custom_link.opened'],
      }).expect(422);
      expect(refused.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'url'],
            msg: "Value error, the URL's port must be one of 443, 80",
            input: 'https://93.184.215.14:8443/hook',
            ctx: { error: "the URL's port must be one of 443, 80" },
          },
        ],
      });
      await post(strict, who, { url: 'https://93.184.215.14:80/hook', eventTypes: ['custom_link.opened'] }).expect(201);
      const { id } = await createEndpointOn(strict, who);
      const patched = await request(strict.server)
        .patch(`${ENDPOINTS}/${id}`)
        .set('x-api-key', who.key)
        .send({ url: 'https://93.184.215.14:9000/' })
        .expect(422);
      expect(detailOf(patched)).toEqual([
        expect.objectContaining({ loc: ['body', 'url'], msg: "Value error, the URL's port must be one of 443, 80" }),
      ]);
      // The receivers of these tests listen on random ports: WEBHOOK_ALLOW_PRIVATE_URLS admits any port.
      await post(t, await t.createTenant(), {
        url: 'http://127.0.0.1:1/hooks',
        eventTypes: ['custom_link.opened'],
      }).expect(201);
    });

    describe('filter', () => {
      const id = (n: number) => `0190a000-0000-7000-8000-${String(n).padStart(12, '0')}`;
      const patch = (who: Tenant, endpointId: string, body: unknown) =>
        request(t.server)
          .patch(`${ENDPOINTS}/${endpointId}`)
          .set('x-api-key', who.key)
          .send(body as object);
      const get = async (who: Tenant, endpointId: string) =>
        (await request(t.server).get(`${ENDPOINTS}/${endpointId}`).set('x-api-key', who.key).expect(200))
          .body as WebhookEndpoint;

      it('is stored canonical, each id once, sorted, and shown by create, get, list, patch and rotate', async () => {
        const who = await t.createTenant();
        const created = (
          await post(t, who, {
            url: receiver.url,
            eventTypes: ['custom_link.opened'],
            // Upper case, braced and simple forms are UUIDs as pydantic reads them; repeats collapse.
            filter: { linkIds: [id(3), id(1).toUpperCase(), `{${id(3)}}`], campaignIds: [id(2).replaceAll('-', '')] },
          }).expect(201)
        ).body as WebhookEndpointWithSecret;
        const filter = { campaignIds: [id(2)], linkIds: [id(1), id(3)] };
        expect(created.filter).toEqual(filter);
        expect((await get(who, created.id)).filter).toEqual(filter);
        const listed = (await request(t.server).get(ENDPOINTS).set('x-api-key', who.key).expect(200))
          .body as WebhookEndpointPage;
        expect(listed.webhookEndpoints.map((e) => e.filter)).toEqual([filter]);
        // A PATCH without `filter` keeps it.
        expect(
          ((await patch(who, created.id, { description: 'kept' }).expect(200)).body as WebhookEndpoint).filter,
        ).toEqual(filter);
        const rotated = (
          await request(t.server).post(`${ENDPOINTS}/${created.id}/rotate-secret`).set('x-api-key', who.key).expect(200)
        ).body as WebhookEndpointWithSecret;
        expect(rotated.filter).toEqual(filter);
        // Without a filter (absent or null), every answer says null.
        const open = (
          await post(t, who, { url: receiver.url, eventTypes: ['custom_link.opened'], filter: null }).expect(201)
        ).body as WebhookEndpointWithSecret;
        expect(open.filter).toBeNull();
        expect((await get(who, open.id)).filter).toBeNull();
      });

      it('PATCH replaces the whole filter, and null removes it', async () => {
        const who = await t.createTenant();
        const { id: endpointId } = (
          await post(t, who, {
            url: receiver.url,
            eventTypes: ['custom_link.opened'],
            filter: { linkIds: [id(1)], campaignIds: [id(2)] },
          }).expect(201)
        ).body as WebhookEndpointWithSecret;
        // A list left out is empty in the new filter, not kept from the old one.
        const replaced = (await patch(who, endpointId, { filter: { linkIds: [id(5), id(4)] } }).expect(200))
          .body as WebhookEndpoint;
        expect(replaced.filter).toEqual({ campaignIds: [], linkIds: [id(4), id(5)] });
        expect((await get(who, endpointId)).filter).toEqual({ campaignIds: [], linkIds: [id(4), id(5)] });
        const cleared = (await patch(who, endpointId, { filter: null }).expect(200)).body as WebhookEndpoint;
        expect(cleared.filter).toBeNull();
        expect((await get(who, endpointId)).filter).toBeNull();
        const set = (await patch(who, endpointId, { filter: { campaignIds: [id(6)] } }).expect(200))
          .body as WebhookEndpoint;
        expect(set.filter).toEqual({ campaignIds: [id(6)], linkIds: [] });
      });

      it('refuses a bad UUID, more than 1,000 ids, wrong types and a filter naming nothing with 422 at the field', async () => {
        const who = await t.createTenant();
        const create = (filter: unknown) =>
          post(t, who, { url: receiver.url, eventTypes: ['custom_link.opened'], filter });

        const badUuid = await create({ linkIds: [id(1), id(2), id(3), 'not-a-uuid'] }).expect(422);
        expect(detailOf(badUuid)).toEqual([
          expect.objectContaining({ type: 'uuid_parsing', loc: ['body', 'filter', 'linkIds', 3], input: 'not-a-uuid' }),
        ]);

        const many = Array.from({ length: 1001 }, (_, n) => id(n));
        const tooMany = await create({ campaignIds: many }).expect(422);
        expect(tooMany.body).toEqual({
          detail: [
            {
              type: 'too_long',
              loc: ['body', 'filter', 'campaignIds'],
              msg: 'List should have at most 1000 items after validation, not 1001',
              input: many,
              ctx: { field_type: 'List', max_length: 1000, actual_length: 1001 },
            },
          ],
        });
        // 1,000 in each list is the bound, not beyond it.
        await create({ campaignIds: many.slice(1), linkIds: many.slice(1) }).expect(201);

        const issue = async (filter: unknown) => detailOf(await create(filter).expect(422));
        expect(await issue('all')).toEqual([
          expect.objectContaining({ type: 'model_attributes_type', loc: ['body', 'filter'], input: 'all' }),
        ]);
        expect(await issue([id(1)])).toEqual([
          expect.objectContaining({ type: 'model_attributes_type', loc: ['body', 'filter'], input: [id(1)] }),
        ]);
        expect(await issue(7)).toEqual([
          expect.objectContaining({ type: 'model_attributes_type', loc: ['body', 'filter'] }),
        ]);
        expect(await issue({ linkIds: id(1) })).toEqual([
          expect.objectContaining({ type: 'list_type', loc: ['body', 'filter', 'linkIds'], input: id(1) }),
        ]);
        expect(await issue({ campaignIds: [id(1), 12] })).toEqual([
          expect.objectContaining({ type: 'uuid_type', loc: ['body', 'filter', 'campaignIds', 1], input: 12 }),
        ]);
        const reason = 'a filter names at least one campaign or link id; null removes the filter';
        for (const empty of [{}, { linkIds: [], campaignIds: null }, { linkIDs: [id(1)] }]) {
          expect(await issue(empty)).toEqual([
            expect.objectContaining({
              type: 'value_error',
              loc: ['body', 'filter'],
              msg: `Value error, ${reason}`,
              ctx: { error: reason },
            }),
          ]);
        }

        // The same rules on PATCH, which then changes nothing.
        const { id: endpointId } = (await create({ linkIds: [id(1)] }).expect(201)).body as WebhookEndpointWithSecret;
        expect(
          detailOf(await patch(who, endpointId, { filter: { linkIds: ['x'] }, description: 'no' }).expect(422)),
        ).toEqual([expect.objectContaining({ type: 'uuid_parsing', loc: ['body', 'filter', 'linkIds', 0] })]);
        expect(detailOf(await patch(who, endpointId, { filter: {}, description: 'no' }).expect(422))).toEqual([
          expect.objectContaining({ type: 'value_error', loc: ['body', 'filter'] }),
        ]);
        expect(await get(who, endpointId)).toMatchObject({
          filter: { campaignIds: [], linkIds: [id(1)] },
          description: null,
        });
      });

      it('reports a refused URL and an empty filter in one answer', async () => {
        const who = await strict.createTenant();
        const res = await post(strict, who, {
          url: 'http://93.184.215.14/hook',
          eventTypes: ['custom_link.opened'],
          filter: { campaignIds: [] },
        }).expect(422);
        expect(detailOf(res).map((issue) => [issue.type, issue.loc])).toEqual([
          ['value_error', ['body', 'url']],
          ['value_error', ['body', 'filter']],
        ]);
      });
    });

    it('takes the allowed ports from WEBHOOK_ALLOWED_PORTS', async () => {
      const custom = await createTestApp({ ...isolated.env, APP_ROLE: 'api', WEBHOOK_ALLOWED_PORTS: '8443', ...FAST });
      try {
        const who = await custom.createTenant();
        await post(custom, who, { url: 'https://93.184.215.14:8443/hook', eventTypes: ['custom_link.opened'] }).expect(
          201,
        );
        const refused = await post(custom, who, {
          url: 'https://93.184.215.14/hook',
          eventTypes: ['custom_link.opened'],
        }).expect(422);
        expect(detailOf(refused)[0].msg).toBe("Value error, the URL's port must be one of 8443");
      } finally {
        await custom.close();
      }
    });
  });

  const createEndpointOn = async (app: TestApp, who: Tenant) =>
    (await post(app, who, { url: 'https://93.184.215.14/hook', eventTypes: ['custom_link.opened'] }).expect(201))
      .body as WebhookEndpoint;

  describe('delivery', () => {
    it('signs every message for the Standard Webhooks verifier and sends the body fixed at recording', async () => {
      const who = await t.createTenant();
      const endpoint = await createEndpoint(who);
      const marker = `m-${Date.now()}`;
      await record(who, { marker });
      await eventually(async () => receivedFor(marker).length === 1);
      const [got] = receivedFor(marker);
      expect(verify(endpoint.secret, got)).toEqual({
        type: 'custom_link.opened',
        timestamp: expect.any(String),
        data: { marker },
      });
      expect(got.headers['webhook-id']).toMatch(UUID);
      expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
      expect(got.headers['content-type']).toBe('application/json');
      const listed = await readUntil(
        () => deliveries(who, endpoint.id),
        (l) => l.deliveries[0]?.status === 'succeeded',
      );
      expect(listed.deliveries).toEqual([
        expect.objectContaining({
          messageId: got.headers['webhook-id'],
          eventType: 'custom_link.opened',
          attempt: 1,
          status: 'succeeded',
          responseStatus: 204,
          error: null,
          nextAttemptAt: null,
        }),
      ]);
    });

    it('signs with both secrets during the rotation overlap', async () => {
      const who = await t.createTenant();
      const endpoint = await createEndpoint(who);
      const rotated = (
        await request(t.server).post(`${ENDPOINTS}/${endpoint.id}/rotate-secret`).set('x-api-key', who.key).expect(200)
      ).body as WebhookEndpointWithSecret;
      const marker = `r-${Date.now()}`;
      await record(who, { marker });
      await eventually(async () => receivedFor(marker).length === 1);
      const [got] = receivedFor(marker);
      expect((got.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
      expect(verify(rotated.secret, got)).toMatchObject({ data: { marker } });
      expect(verify(endpoint.secret, got)).toMatchObject({ data: { marker } });
    });

    it('retries with backoff (same webhook-id and body) until the receiver accepts, and a manual retry sends it again', async () => {
      const who = await t.createTenant();
      const endpoint = await createEndpoint(who);
      const marker = `f-${Date.now()}`;
      receiver.failNext(2);
      await record(who, { marker });
      await eventually(async () => receivedFor(marker).length === 3, 30_000);
      const attempts = receivedFor(marker);
      expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
      expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
      for (const a of attempts) expect(verify(endpoint.secret, a)).toMatchObject({ data: { marker } });

      const listed = await readUntil(
        () => deliveries(who, endpoint.id),
        (l) => l.deliveries[0]?.status === 'succeeded',
      );
      expect(listed.deliveries.map((d) => [d.attempt, d.status, d.responseStatus])).toEqual([
        [3, 'succeeded', 204],
        [2, 'failed', 500],
        [1, 'failed', 500],
      ]);
      expect(listed.deliveries[1].nextAttemptAt).not.toBeNull();
      expect(listed.deliveries[1].error).toBe('the endpoint answered HTTP 500');
      expect((await deliveries(who, endpoint.id, '?status=failed')).total).toBe(2);
      expect((await deliveries(who, endpoint.id, '?status=succeeded,pending')).total).toBe(1);
      await request(t.server)
        .get(`${ENDPOINTS}/${endpoint.id}/deliveries?status=lost`)
        .set('x-api-key', who.key)
        .expect(422);

      const retried = await request(t.server)
        .post(`${ENDPOINTS}/${endpoint.id}/deliveries/${listed.deliveries[2].id}/retry`)
        .set('x-api-key', who.key)
        .expect(202);
      expect(retried.body).toMatchObject({ attempt: 4, status: 'pending', messageId: listed.deliveries[0].messageId });
      await eventually(async () => receivedFor(marker).length === 4);
      const replay = receivedFor(marker)[3];
      expect(replay.body).toBe(attempts[0].body);
      expect(replay.headers['webhook-id']).toBe(attempts[0].headers['webhook-id']);
      await request(t.server)
        .post(`${ENDPOINTS}/${endpoint.id}/deliveries/${endpoint.id}/retry`)
        .set('x-api-key', who.key)
        .expect(404, { detail: "Webhook delivery not found for the key's organization." });
    });

    it('sends only to active endpoints subscribed to the type, and records nothing without one', async () => {
      const who = await t.createTenant();
      const other = await createEndpoint(who, ['session.analyzed']);
      const paused = await createEndpoint(who);
      await request(t.server)
        .patch(`${ENDPOINTS}/${paused.id}`)
        .set('x-api-key', who.key)
        .send({ active: false })
        .expect(200);
      const marker = `s-${Date.now()}`;
      await record(who, { marker });
      const listening = await createEndpoint(who);
      const later = `s2-${Date.now()}`;
      await record(who, { marker: later });
      await eventually(async () => receivedFor(later).length === 1);
      expect(receivedFor(marker)).toHaveLength(0);
      expect((await deliveries(who, other.id)).total).toBe(0);
      expect((await deliveries(who, paused.id)).total).toBe(0);
      expect((await deliveries(who, listening.id)).total).toBe(1);
    });
  });

  describe('events from their causes', () => {
    const bodiesOf = (type: string) =>
      receiver.received
        .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })
        .filter((b) => b.type === type);

    it('session.analyzed fires from the ingestion that first shows the session analyzed, with its detail as GET returns it', async () => {
      const who = await t.createTenant();
      const endpoint = await createEndpoint(who, ['session.analyzed']);
      const id = newSessionId();
      await ingest(t.server, who.key, id, sessionBody({ analysisStatus: 'pending' })).expect(200);
      expect((await deliveries(who, endpoint.id)).total).toBe(0);
      await ingest(t.server, who.key, id, sessionBody()).expect(200);
      await eventually(async () => bodiesOf('session.analyzed').some((b) => b.data.id === id));
      const detail = (await request(t.server).get(`/api/v1/sessions/${id}`).set('x-api-key', who.key).expect(200))
        .body as Record<string, unknown>;
      expect(
        bodiesOf('session.analyzed')
          .filter((b) => b.data.id === id)
          .map((b) => b.data),
      ).toEqual([detail]);
      // Already analyzed: a later change records no second message (the outbox row would commit with it).
      await ingest(t.server, who.key, id, sessionBody({ displayId: 'S-1002' })).expect(200);
      expect((await deliveries(who, endpoint.id)).total).toBe(1);
    });

    it('custom_link_job.finished fires once when a creation job settles, with the job as GET returns it', async () => {
      const who = await t.createTenant();
      await createEndpoint(who, ['custom_link_job.finished']);
      const created = await request(t.server)
        .post('/api/v1/custom-links')
        .set('x-api-key', who.key)
        .set('Idempotency-Key', `wh-${Date.now()}`)
        .send({
          links: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: 'Analytical Engines' }],
        })
        .expect(202);
      const jobId = (created.body as JobEnvelope).job.id;
      await eventually(async () => bodiesOf('custom_link_job.finished').some((b) => b.data.id === jobId), 30_000);
      const job = (
        await request(t.server).get(`/api/v1/custom-link-jobs/${jobId}`).set('x-api-key', who.key).expect(200)
      ).body as Record<string, unknown>;
      const sent = bodiesOf('custom_link_job.finished').filter((b) => b.data.id === jobId);
      expect(sent).toHaveLength(1);
      expect(sent[0].data).toEqual(job);
    });

    it('agent_publish_job.finished fires once per publish job, succeeded or failed, with the publish job as GET returns it', async () => {
      const who = await t.createTenant();
      const endpoint = await createEndpoint(who, ['agent_publish_job.finished']);
      const JOBS = '/api/v1/agent/publish-jobs';
      const publish = async (version: number) =>
        (
          (
            await request(t.server)
              .post(JOBS)
              .set('x-api-key', who.key)
              .send({ version, confirm: 'publish-to-production' })
              .expect(202)
          ).body as PublishJob
        ).jobId;
      const jobOf = async (id: string) =>
        (await request(t.server).get(`${JOBS}/${id}`).set('x-api-key', who.key).expect(200)).body as Record<
          string,
          unknown
        >;
      const sentFor = (jobId: string) => bodiesOf('agent_publish_job.finished').filter((b) => b.data.jobId === jobId);
      await request(t.server)
        .put('/api/v1/agent/conversation-tests')
        .set('x-api-key', who.key)
        .send({ tests: [{ name: 'greets', sectionKey: 'greeting', mustContain: ['welcome'] }] })
        .expect(200);
      const section = (content: string) => ({ sections: [{ key: 'greeting', title: 'Greeting', content }] });
      await request(t.server)
        .put('/api/v1/playbook')
        .set('x-api-key', who.key)
        .send(section('Welcome to Acme.'))
        .expect(200);
      await request(t.server).put('/api/v1/playbook').set('x-api-key', who.key).send(section('Hello.')).expect(200);

      const passing = await publish(1);
      await eventually(async () => sentFor(passing).length > 0, 30_000);
      const failing = await publish(2);
      await eventually(async () => sentFor(failing).length > 0, 30_000);

      const [succeeded, failed] = [await jobOf(passing), await jobOf(failing)];
      expect([succeeded.status, failed.status]).toEqual(['succeeded', 'failed']);
      expect(sentFor(passing).map((b) => b.data)).toEqual([succeeded]);
      expect(sentFor(failing).map((b) => b.data)).toEqual([failed]);
      expect((await deliveries(who, endpoint.id)).total).toBe(2);
    });

    describe('link events', () => {
      const LINK_TYPES = [
        'custom_link.opened',
        'custom_link.session_started',
        'custom_link.engaged',
        'custom_link.lead',
        'custom_link.meeting_booked',
      ];
      const CHROME =
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
      const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
      const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 9, n)).toISOString();
      /** The link events sent about a link, as [type, eventId] in the order they were recorded. */
      const sentFor = (linkId: string) =>
        receiver.received
          .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> })
          .filter((b) => LINK_TYPES.includes(b.type) && b.data.id === linkId);
      const linkOf = async (who: Tenant, id: string) =>
        (await request(t.server).get(`/api/v1/custom-links/${id}`).set('x-api-key', who.key).expect(200)).body as Link;
      /** Posts events and waits for their fold, in whose transaction their webhook messages are recorded. */
      const send = async (who: Tenant, events: unknown[]) => {
        await request(t.server).post('/api/v1/events').set('x-api-key', who.key).send({ events }).expect(202);
        await folded(t.app, who.organizationId);
      };

      /** A link made through the API, filed in the campaign named `campaign` when given. */
      async function createLink(who: Tenant, campaign?: string): Promise<string> {
        const links = [{ firstName: 'Ada', shareThumbnailUrl: 'https://cdn.example.com/card.png' }];
        const res = await request(t.server)
          .post('/api/v1/custom-links')
          .set('x-api-key', who.key)
          .set('Idempotency-Key', `wh-link-${Date.now()}-${Math.random()}`)
          .send(campaign === undefined ? { links } : { links, campaign: { name: campaign } })
          .expect(202);
        const jobId = (res.body as JobEnvelope).job.id;
        let linkId = '';
        await eventually(async () => {
          const items = (
            await request(t.server).get(`/api/v1/custom-link-jobs/${jobId}/items`).set('x-api-key', who.key).expect(200)
          ).body as JobItemPage;
          linkId = items.items[0]?.customLinkId ?? '';
          return linkId !== '';
        }, 30_000);
        return linkId;
      }

      it('custom_link.opened fires once per accepted human open (public route and event batch), never for a bot open, with the link as GET returns it', async () => {
        const who = await t.createTenant();
        const endpoint = await createEndpoint(who, LINK_TYPES);
        const linkId = await createLink(who);
        const path = new URL((await linkOf(who, linkId)).url).pathname;
        await request(t.server).get(path).set('User-Agent', GOOGLEBOT).redirects(0).expect(302);
        await request(t.server).get(path).set('User-Agent', CHROME).redirects(0).expect(302);
        await eventually(
          async () => sentFor(linkId).length === 1 && (await linkOf(who, linkId)).engagement.botOpens.user_agent === 1,
          30_000,
        );
        const [publicOpen] = sentFor(linkId);
        expect(publicOpen.type).toBe('custom_link.opened');
        expect(publicOpen.data.eventId).toMatch(/^open-/);

        await send(who, [
          { eventId: 'o-human', type: 'open', customLinkId: linkId, occurredAt: at(1) },
          { eventId: 'o-bot', type: 'open', customLinkId: linkId, occurredAt: at(2), userAgent: GOOGLEBOT },
          { eventId: 'o-flag', type: 'open', customLinkId: linkId, occurredAt: at(3), bot: true },
        ]);
        // The same open again is a duplicate, not a new open.
        await send(who, [{ eventId: 'o-human', type: 'open', customLinkId: linkId, occurredAt: at(1) }]);
        await eventually(async () => sentFor(linkId).length >= 2);
        const link = await linkOf(who, linkId);
        expect(link.engagement.botOpens.user_agent).toBe(3);
        expect(sentFor(linkId).map((b) => [b.type, b.data.eventId])).toEqual([
          ['custom_link.opened', publicOpen.data.eventId],
          ['custom_link.opened', 'o-human'],
        ]);
        // Nothing changed the link since the batch: its message carries the link as GET returns it now
        // (but for asOf, each read's own instant).
        expect(sentFor(linkId)[1].data).toEqual({ ...sameLink(link), eventId: 'o-human', occurredAt: at(1) });
        expect((await deliveries(who, endpoint.id)).total).toBe(2);
      });

      it("each milestone fires once, when the link's stage or flag first reaches it, from the event that reached it", async () => {
        const who = await t.createTenant();
        const endpoint = await createEndpoint(who, LINK_TYPES);
        const linkId = await createLink(who);
        const sessionId = '0190a000-0000-7000-8000-000000000001';
        await send(who, [
          {
            eventId: 'm-bot-start',
            type: 'session_started',
            customLinkId: linkId,
            occurredAt: at(1),
            sessionId,
            userAgent: GOOGLEBOT,
          },
          { eventId: 'm-start-2', type: 'session_started', customLinkId: linkId, occurredAt: at(3), sessionId },
          { eventId: 'm-start-1', type: 'session_started', customLinkId: linkId, occurredAt: at(2), sessionId },
        ]);
        await send(who, [
          { eventId: 'm-start-3', type: 'session_started', customLinkId: linkId, occurredAt: at(4), sessionId },
          { eventId: 'm-engaged', type: 'session_engaged', customLinkId: linkId, occurredAt: at(5), sessionId },
        ]);
        await send(who, [
          { eventId: 'm-lead-1', type: 'lead_submitted', customLinkId: linkId, occurredAt: at(6), sessionId },
        ]);
        await send(who, [
          { eventId: 'm-lead-2', type: 'lead_submitted', customLinkId: linkId, occurredAt: at(7), sessionId },
          { eventId: 'm-engaged-2', type: 'session_engaged', customLinkId: linkId, occurredAt: at(8), sessionId },
          { eventId: 'm-booked-1', type: 'meeting_booked', customLinkId: linkId, occurredAt: at(9), sessionId },
        ]);
        // Recorded with each batch's fold: one message per milestone, none for the bot's start or the repeats.
        expect((await deliveries(who, endpoint.id)).total).toBe(4);
        await eventually(async () => sentFor(linkId).length === 4);
        // Deliveries run in parallel: compare by type, not by arrival.
        const byType = Object.fromEntries(sentFor(linkId).map((b) => [b.type, [b.data.eventId, b.data.occurredAt]]));
        expect(byType).toEqual({
          'custom_link.session_started': ['m-start-1', at(2)],
          'custom_link.engaged': ['m-engaged', at(5)],
          'custom_link.lead': ['m-lead-1', at(6)],
          'custom_link.meeting_booked': ['m-booked-1', at(9)],
        });
        // Nothing changed the link since the last batch: its message carries the link as GET returns it now
        // (but for asOf, each read's own instant).
        const booked = sentFor(linkId).find((b) => b.type === 'custom_link.meeting_booked')!;
        expect(booked.data).toEqual({
          ...sameLink(await linkOf(who, linkId)),
          eventId: 'm-booked-1',
          occurredAt: at(9),
        });

        // Reached already: a later booking records nothing (a message would commit with its batch's fold, awaited by send).
        await send(who, [
          { eventId: 'm-booked-2', type: 'meeting_booked', customLinkId: linkId, occurredAt: at(10), sessionId },
        ]);
        expect((await deliveries(who, endpoint.id)).total).toBe(4);
      });

      describe('to filtered endpoints', () => {
        type Receiver = Awaited<ReturnType<typeof startReceiver>>;
        const receivers: Receiver[] = [];
        afterAll(() => Promise.all(receivers.map((r) => r.close())));

        /** An endpoint with a receiver of its own, so what reached it is told apart from what reached the others. */
        const endpointWith = async (who: Tenant, filter: unknown, eventTypes = LINK_TYPES) => {
          const own = await startReceiver();
          receivers.push(own);
          const endpoint = (await post(t, who, { url: own.url, eventTypes, filter }).expect(201))
            .body as WebhookEndpointWithSecret;
          const messages = () =>
            own.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
          /** [type, link id] of the link events it received. */
          const linkEvents = () =>
            messages()
              .filter((m) => LINK_TYPES.includes(m.type))
              .map((m) => [m.type, m.data.id]);
          return { endpoint, messages, linkEvents };
        };
        const opened = (linkId: string) => ['custom_link.opened', linkId];
        const sortedPairs = (pairs: unknown[][]) => pairs.map((p) => JSON.stringify(p)).sort();
        const open = (linkId: string, eventId: string) => ({
          eventId,
          type: 'open',
          customLinkId: linkId,
          occurredAt: at(1),
        });

        it("send a link's events only when the filter names the link or the campaign it is filed in; unfiltered endpoints get every link's", async () => {
          const who = await t.createTenant();
          const [a, b] = [await createLink(who), await createLink(who)];
          const filed = await createLink(who, 'Filtered campaign');
          const campaignId = (await linkOf(who, filed)).campaignId!;
          expect(campaignId).toMatch(UUID);

          const everyLink = await endpointWith(who, null);
          const linkA = await endpointWith(who, { linkIds: [a] });
          const campaign = await endpointWith(who, { campaignIds: [campaignId] });
          const either = await endpointWith(who, { linkIds: [b], campaignIds: [campaignId] });

          await send(who, [open(a, 'f-a'), open(b, 'f-b'), open(filed, 'f-c')]);
          // A milestone is a link event too: the filter applies to it as to opens.
          await send(who, [
            {
              eventId: 'f-a-start',
              type: 'session_started',
              customLinkId: a,
              occurredAt: at(2),
              sessionId: newSessionId(),
            },
          ]);
          // The fold has recorded every message and its deliveries: the counts are final now.
          expect((await deliveries(who, everyLink.endpoint.id)).total).toBe(4);
          expect((await deliveries(who, linkA.endpoint.id)).total).toBe(2);
          expect((await deliveries(who, campaign.endpoint.id)).total).toBe(1);
          expect((await deliveries(who, either.endpoint.id)).total).toBe(2);

          await eventually(
            async () =>
              everyLink.linkEvents().length === 4 &&
              linkA.linkEvents().length === 2 &&
              campaign.linkEvents().length === 1 &&
              either.linkEvents().length === 2,
            30_000,
          );
          expect(sortedPairs(everyLink.linkEvents())).toEqual(
            sortedPairs([opened(a), opened(b), opened(filed), ['custom_link.session_started', a]]),
          );
          expect(sortedPairs(linkA.linkEvents())).toEqual(sortedPairs([opened(a), ['custom_link.session_started', a]]));
          expect(campaign.linkEvents()).toEqual([opened(filed)]);
          // The message's data shows the campaign the filter matched.
          expect(campaign.messages()[0].data.campaignId).toBe(campaignId);
          expect(sortedPairs(either.linkEvents())).toEqual(sortedPairs([opened(b), opened(filed)]));
        });

        it('match the campaign a link is filed in when the event is recorded, and do not filter events that are not about a link', async () => {
          const who = await t.createTenant();
          const link = await createLink(who);
          const { id: campaignId } = (
            await request(t.server)
              .post('/api/v1/custom-link-campaigns')
              .set('x-api-key', who.key)
              .send({ name: 'Later' })
              .expect(201)
          ).body as { id: string };
          const filtered = await endpointWith(who, { campaignIds: [campaignId] }, [...LINK_TYPES, 'session.analyzed']);
          const fileIn = (campaign: { id: string } | null) =>
            request(t.server)
              .patch(`/api/v1/custom-links/${link}`)
              .set('x-api-key', who.key)
              .send({ campaign })
              .expect(200);

          await send(who, [open(link, 'l-unfiled')]);
          await fileIn({ id: campaignId });
          await send(who, [open(link, 'l-filed')]);
          await fileIn(null);
          await send(who, [open(link, 'l-unfiled-again')]);
          expect((await deliveries(who, filtered.endpoint.id)).total).toBe(1);

          // session.analyzed is about no link: a filtered endpoint subscribed to it gets it.
          const sessionId = newSessionId();
          await ingest(t.server, who.key, sessionId, sessionBody()).expect(200);
          await eventually(async () => filtered.messages().length === 2, 30_000);
          expect(filtered.linkEvents()).toEqual([opened(link)]);
          expect(filtered.messages().find((m) => m.type === 'custom_link.opened')!.data).toMatchObject({
            eventId: 'l-filed',
            campaignId,
          });
          expect(filtered.messages().find((m) => m.type === 'session.analyzed')!.data.id).toBe(sessionId);
        });

        it("accept another organization's ids, which match nothing of it", async () => {
          const [owner, other] = [await t.createTenant(), await t.createTenant()];
          const theirs = await createLink(other);
          // Ids are not looked up: a filter tells nothing about which ids exist, here or elsewhere.
          const snooping = await endpointWith(owner, { linkIds: [theirs] });
          expect(snooping.endpoint.filter).toEqual({ campaignIds: [], linkIds: [theirs] });
          const theirEndpoint = await endpointWith(other, null);
          await send(other, [open(theirs, 'x-org')]);
          expect((await deliveries(other, theirEndpoint.endpoint.id)).total).toBe(1);
          expect((await deliveries(owner, snooping.endpoint.id)).total).toBe(0);
          await eventually(async () => theirEndpoint.linkEvents().length === 1, 30_000);
          expect(snooping.messages()).toEqual([]);
        });
      });
    });
  });
});
