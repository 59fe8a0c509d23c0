import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { JobItemPage } from './support/api-types';
import { sessionBody } from './support/sessions';
import type { DocumentOperation } from './support/openapi-operations';
import { startPrism, type PrismProxy } from './support/prism';
import { PrismScenario, type ApiRequest, type ApiResponse, type ScenarioReport } from './support/prism-scenario';
import { folded } from './support/fold';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver';

/**
 * openapi.json checked by a validator nobody here wrote (issue 29 point 3): a scenario through
 * @stoplight/prism-cli 5.16 as a validating proxy covers every operation of the document, its error
 * statuses included (401, 403, 404, 409, 422 where declared; 429 on an app with tiny limits), and
 * fails on any violation Prism reports, on any answer whose status is not the expected one, and on
 * any operation (or declared error status) the scenario did not exercise.
 *
 * Data is set up through the API itself. The figures (requests, violations, grouped list) are
 * written to reports/prism-summary.json.
 */

jest.setTimeout(180_000);

const CAMPAIGNS = '/api/v1/custom-link-campaigns';
const LINKS = '/api/v1/custom-links';
const JOBS = '/api/v1/custom-link-jobs';
const SESSIONS = '/api/v1/sessions';
const INGEST = '/api/v1/ingest/sessions';
const EXPORTS = '/api/v1/exports';
const ENDPOINTS = '/api/v1/webhook-endpoints';
const PLAYBOOK = '/api/v1/playbook';
const GROUPS = `${PLAYBOOK}/suggestions`;
const AGENT = '/api/v1/agent';
const PUBLISH = `${AGENT}/publish-jobs`;
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';
const OTHER_UNKNOWN_ID = '0190a000-0000-7000-8000-000000000001';
const PROVIDED_CARD = 'https://cdn.example.com/card.png';
const TERMINAL_JOB = ['completed', 'completed_with_errors', 'cancelled', 'failed'];
const REPORT = join(__dirname, '..', 'reports', 'prism-summary.json');

/**
 * The requests sent to the app directly, not through Prism, and why. They count as covered: the
 * project's own contract check (test/support/openapi-contract.ts) still validates their answers.
 */
const DIRECT_REQUESTS = [
  {
    operation: 'GET /l/{slug}',
    status: 302,
    reason:
      'Prism 5.16 follows a redirect itself (node-fetch, redirect: follow): it would fetch and validate the experience page, not the 302',
  },
  {
    operation: `POST ${CAMPAIGNS}`,
    status: 422,
    reason:
      'a malformed JSON body: Prism 5.16 does not forward it and never answers (its body parser fails and waits for an end the request already had)',
  },
];

/** Error statuses each operation must be seen answering when the document declares them. */
const ERROR_STATUSES = ['401', '403', '404', '409', '422', '429'];

/** Declared error statuses (`GET /x 404`) no request can bring about in this scenario, each with why; none today. */
const NOT_EXERCISED: Record<string, string> = {};

/**
 * A body that breaks the operation's schema where `{}` does not (for a 422, and as the first use of
 * an Idempotency-Key for a 409). Operations with an id in their path get a malformed id instead.
 */
const BAD_BODIES: Record<string, unknown> = {
  [`PUT ${INGEST}/{session_id}`]: { startTime: 'yesterday' },
};

const BASE_SECTIONS = [
  { key: 'intro', title: 'Introduction', content: 'Hello, I am the Acme assistant.' },
  { key: 'pricing', title: 'Pricing', content: 'Plans start at $10 per month.' },
];

const baseUrl = (app: TestApp) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

describe('openapi.json through Prism (validating proxy)', () => {
  let main: TestApp;
  let limited: TestApp;
  let receiver: WebhookReceiver;
  const proxies: PrismProxy[] = [];
  let s: PrismScenario;
  let tenant: Tenant;
  let other: Tenant;
  /** Keys of the main tenant lacking a route's scope: webhooks:read alone (for every other route), sessions:read alone (for the webhook routes). */
  let webhooksReader: string;
  let sessionsReader: string;
  let limitedKey: string;
  const runId = randomUUID().slice(0, 8);
  const idem = () => randomUUID();

  let isolated: IsolatedServices;

  beforeAll(async () => {
    // Its deliveries go to a local receiver: a database and queues of its own (isolated-database.ts).
    isolated = await isolatedServices('prism');
    main = await createTestApp({
      ...isolated.env,
      APP_ROLE: 'all',
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_DISPATCH_INTERVAL_MS: '50',
    });
    // Every key, client address and link has a budget of one request per minute here.
    limited = await createTestApp({
      ...isolated.env,
      APP_ROLE: 'api',
      RATE_LIMIT_PER_MINUTE: '1',
      LINK_OPENS_PER_CLIENT_PER_MINUTE: '1',
      LINK_OPENS_PER_LINK_PER_MINUTE: '1',
      THUMBNAIL_REQUESTS_PER_CLIENT_PER_MINUTE: '1',
    });
    await main.app.listen(0, '127.0.0.1');
    await limited.app.listen(0, '127.0.0.1');
    receiver = await startReceiver();
    const started = await Promise.allSettled([
      startPrism(baseUrl(main), { errors: false }),
      startPrism(baseUrl(main), { errors: true }),
      startPrism(baseUrl(limited), { errors: false }),
    ]);
    for (const result of started) if (result.status === 'fulfilled') proxies.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const [validating, errors, limitedProxy] = proxies;
    s = new PrismScenario(
      { validating: validating.url, errors: errors.url, limited: limitedProxy.url, direct: baseUrl(main) },
      () => tenant.key,
    );

    tenant = await main.createTenant();
    other = await main.createTenant();
    webhooksReader = await main.createKey(tenant.organizationId, ['webhooks:read']);
    sessionsReader = await main.createKey(tenant.organizationId, ['sessions:read']);
    limitedKey = (await limited.createTenant()).key;
  });

  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    await receiver?.close();
    await limited?.close();
    await main?.close();
    await isolated?.drop();
  });

  /** Reads with `read` every 200 ms until `done` holds (or the deadline passes). */
  async function pollUntil(
    read: () => Promise<ApiResponse>,
    done: (res: ApiResponse) => boolean,
    timeoutMs = 60_000,
  ): Promise<ApiResponse> {
    let last: ApiResponse | undefined;
    await eventually(async () => done((last = await read())), timeoutMs, 200);
    return last as ApiResponse;
  }

  /**
   * A multi-value filter sent as the document declares it must select what its values select one by
   * one (the values are exclusive): a form the server reads otherwise gives a silently wrong list.
   */
  async function multiValue(path: string, name: string, values: string[]): Promise<void> {
    const totalOf = (res: ApiResponse) => Number((res.body.pagination ?? res.body).total);
    const together = totalOf(await s.must({ method: 'GET', path, query: { [name]: values }, expect: 200 }));
    let oneByOne = 0;
    for (const value of values)
      oneByOne += totalOf(await s.must({ method: 'GET', path, query: { [name]: [value] }, expect: 200 }));
    if (together !== oneByOne)
      s.failures.push(
        `GET ${path} ${name}=${values.join(',')} in the document's form: ${together} results, the values one by one: ${oneByOne}`,
      );
  }

  // Set by the scenario, read by later steps.
  let campaignId: string;
  let ada: { id: string; url: string; shareThumbnailUrl: string };
  let grace: { id: string; url: string };
  let sessionId: string;

  it('campaigns, link creation jobs, links, thumbnails and /l/{slug}', async () => {
    await s.send({ method: 'GET', path: '/healthz', key: null, expect: 200 });
    await s.send({ method: 'GET', path: '/readyz', key: null, expect: 200 });
    await s.send({ method: 'GET', path: '/metrics', key: null, expect: 200 });

    campaignId = (
      await s.must({
        method: 'POST',
        path: CAMPAIGNS,
        idempotencyKey: idem(),
        body: { name: `Prism ${runId}` },
        expect: 201,
      })
    ).body.id;
    await s.send({ method: 'GET', path: CAMPAIGNS, query: { limit: 10 }, expect: 200 });
    await s.send({
      method: 'PATCH',
      path: `${CAMPAIGNS}/${campaignId}`,
      idempotencyKey: idem(),
      body: { name: `Prism renamed ${runId}` },
      expect: 200,
    });
    const doomed = (
      await s.must({
        method: 'POST',
        path: CAMPAIGNS,
        idempotencyKey: idem(),
        body: { name: `Prism doomed ${runId}` },
        expect: 201,
      })
    ).body.id as string;
    await s.send({ method: 'DELETE', path: `${CAMPAIGNS}/${doomed}`, idempotencyKey: idem(), expect: 204 });
    // The malformed body goes to the app directly (DIRECT_REQUESTS).
    await s.send(
      { method: 'POST', path: CAMPAIGNS, idempotencyKey: idem(), rawBody: '{"name": ', expect: 422 },
      'direct',
    );

    // Ada's card is rendered (no logo: generated), Grace's is provided.
    const links = [
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        company: 'Analytical',
        email: 'ada@acme.com',
        externalId: `prism-ada-${runId}`,
      },
      {
        firstName: 'Grace',
        lastName: 'Hopper',
        company: 'Navy',
        externalId: `prism-grace-${runId}`,
        shareThumbnailUrl: PROVIDED_CARD,
      },
    ];
    const jobId = (
      await s.must({
        method: 'POST',
        path: LINKS,
        idempotencyKey: idem(),
        body: { links, campaign: { id: campaignId } },
        expect: 202,
      })
    ).body.job.id as string;
    // Creation needs an Idempotency-Key (a required header: the request breaks the document on purpose).
    await s.send({ method: 'POST', path: LINKS, body: { links }, expect: 400, invalid: true });
    const done = await pollUntil(
      () => s.must({ method: 'GET', path: `${JOBS}/${jobId}`, expect: 200 }),
      (res) => TERMINAL_JOB.includes(res.body.status),
    );
    expect(done.body.status).toBe('completed');
    await s.send({
      method: 'GET',
      path: `${JOBS}/${jobId}`,
      headers: { 'if-none-match': String(done.headers.get('etag')) },
      expect: 304,
    });
    const { items } = (
      await s.must({ method: 'GET', path: `${JOBS}/${jobId}/items`, query: { limit: 50 }, expect: 200 })
    ).body as JobItemPage;
    const [adaId, graceId] = items.map((item) => item.customLinkId);
    await s.send({
      method: 'GET',
      path: LINKS,
      query: { campaign_id: campaignId, active: true, sort: 'created_at', order: 'desc', limit: 50 },
      expect: 200,
    });
    ada = (await s.must({ method: 'GET', path: `${LINKS}/${adaId}`, expect: 200 })).body;
    grace = (await s.must({ method: 'GET', path: `${LINKS}/${graceId}`, expect: 200 })).body;
    await s.send({
      method: 'PATCH',
      path: `${LINKS}/${adaId}`,
      idempotencyKey: idem(),
      body: { context: 'Met at the conference' },
      expect: 200,
    });
    // A change that re-renders the card needs an Idempotency-Key (an optional header: a valid request).
    await s.send({ method: 'PATCH', path: `${LINKS}/${adaId}`, body: { displayName: 'Ada L.' }, expect: 400 });

    const card = new URL(ada.shareThumbnailUrl).pathname;
    const png = await s.must({ method: 'GET', path: card, key: null, expect: 200 });
    await s.send({
      method: 'GET',
      path: card,
      key: null,
      headers: { 'if-none-match': String(png.headers.get('etag')) },
      expect: 304,
    });

    await s.send({
      method: 'POST',
      path: `${LINKS}/actions`,
      idempotencyKey: idem(),
      body: { action: 'deactivate', customLinkIds: [graceId] },
      expect: 200,
    });
    const slugOf = (url: string) => new URL(url).pathname.split('/').pop() as string;
    await s.send({ method: 'GET', path: `/l/${slugOf(grace.url)}`, key: null, expect: 410 });
    await s.send({ method: 'GET', path: `/l/no-such-slug-${runId}`, key: null, expect: 404 });
    await s.send({ method: 'GET', path: `/l/${slugOf(ada.url)}`, key: null, expect: 302 }, 'direct');

    // Nullable request fields given as null: a job filed in no campaign, a link unfiled.
    await s.send({
      method: 'POST',
      path: LINKS,
      idempotencyKey: idem(),
      body: { links: [{ ...links[1], externalId: `prism-unfiled-${runId}` }], campaign: null },
      expect: 202,
    });
    await s.send({
      method: 'PATCH',
      path: `${LINKS}/${graceId}`,
      idempotencyKey: idem(),
      body: { campaign: null },
      expect: 200,
    });

    // A job whose campaign does not exist fails every item; its retry is a new job.
    const failing = (
      await s.must({
        method: 'POST',
        path: LINKS,
        idempotencyKey: idem(),
        body: { links: [links[1]], campaign: { id: UNKNOWN_ID } },
        expect: 202,
      })
    ).body.job.id as string;
    await pollUntil(
      () => s.must({ method: 'GET', path: `${JOBS}/${failing}`, expect: 200 }),
      (res) => TERMINAL_JOB.includes(res.body.status),
    );
    await s.send({ method: 'POST', path: `${JOBS}/${failing}/retry`, idempotencyKey: idem(), expect: 202 });
    await s.send({ method: 'POST', path: `${JOBS}/${jobId}/retry`, idempotencyKey: idem(), expect: 409 });

    // Rendered cards keep a job busy long enough to cancel it; a settled job cannot be cancelled.
    const busyLinks = Array.from({ length: 20 }, (_, i) => ({ firstName: `Busy${i}`, company: 'Slow Co' }));
    const busy = (
      await s.must({ method: 'POST', path: LINKS, idempotencyKey: idem(), body: { links: busyLinks }, expect: 202 })
    ).body.job.id as string;
    await s.send({ method: 'POST', path: `${JOBS}/${busy}/cancel`, idempotencyKey: idem(), expect: 200 });
    await pollUntil(
      () => s.must({ method: 'GET', path: `${JOBS}/${busy}`, expect: 200 }),
      (res) => TERMINAL_JOB.includes(res.body.status),
    );
    await s.send({ method: 'POST', path: `${JOBS}/${busy}/cancel`, idempotencyKey: idem(), expect: 409 });
    await s.send({
      method: 'GET',
      path: JOBS,
      query: { status: ['completed', 'failed', 'cancelled'], limit: 50 },
      expect: 200,
    });
    // Counted once every job has settled (the retry's job may still be running).
    await pollUntil(
      () => s.must({ method: 'GET', path: JOBS, query: { limit: 200 }, expect: 200 }),
      (res) => res.body.jobs.every((job: { status: string }) => TERMINAL_JOB.includes(job.status)),
    );
    await multiValue(JOBS, 'status', TERMINAL_JOB);
    await s.send({ method: 'GET', path: JOBS, query: { campaign_id: campaignId }, expect: 200 });
  });

  it('webhook endpoints, sessions, people, accounts, events, engagement, exports and deliveries', async () => {
    const endpoint = (
      await s.must({
        method: 'POST',
        path: ENDPOINTS,
        idempotencyKey: idem(),
        body: { url: receiver.url, eventTypes: ['session.analyzed'], description: 'CRM sync' },
        expect: 201,
      })
    ).body;
    await s.send({ method: 'GET', path: ENDPOINTS, query: { limit: 10 }, expect: 200 });
    await s.send({ method: 'GET', path: `${ENDPOINTS}/${endpoint.id}`, expect: 200 });
    await s.send({
      method: 'PATCH',
      path: `${ENDPOINTS}/${endpoint.id}`,
      idempotencyKey: idem(),
      body: { description: 'CRM', active: true },
      expect: 200,
    });
    await s.send({
      method: 'PATCH',
      path: `${ENDPOINTS}/${endpoint.id}`,
      idempotencyKey: idem(),
      body: { description: null },
      expect: 200,
    });
    await s.send({
      method: 'POST',
      path: `${ENDPOINTS}/${endpoint.id}/rotate-secret`,
      idempotencyKey: idem(),
      expect: 200,
    });
    const spare = (
      await s.must({
        method: 'POST',
        path: ENDPOINTS,
        idempotencyKey: idem(),
        body: { url: receiver.url, eventTypes: ['custom_link.opened'] },
        expect: 201,
      })
    ).body.id as string;
    await s.send({ method: 'DELETE', path: `${ENDPOINTS}/${spare}`, idempotencyKey: idem(), expect: 204 });

    // Three analyzed sessions of one account: high, medium and low intent; the first opened from Ada's link, with a transcript.
    const transcript = {
      entries: [
        { speaker: 'agent', text: 'Hi Ada.', timestamp: '2026-11-20T10:00:05.000Z', sequenceNumber: 1 },
        { speaker: 'prospect', text: 'Hello.', timestamp: '2026-11-20T10:00:12.000Z', sequenceNumber: 2 },
      ],
    };
    const bodies = [
      sessionBody({ buyingIntent: 'high', customLinkId: ada.id, transcript }),
      sessionBody({
        buyingIntent: 'medium',
        email: 'grace@acme.com',
        name: 'Grace Hopper',
        qualificationStatus: 'unqualified',
        bookedStatus: 'not_booked',
      }),
      // Nullable request objects given as null.
      sessionBody({
        buyingIntent: 'low',
        email: 'alan@acme.com',
        name: 'Alan Turing',
        tracking: null,
        transcript: null,
      }),
    ];
    const ingested: { id: string; personId: string }[] = [];
    for (const body of bodies) {
      const id = randomUUID();
      ingested.push(
        (await s.must({ method: 'PUT', path: `${INGEST}/${id}`, idempotencyKey: idem(), body, expect: 200 })).body,
      );
    }
    sessionId = ingested[0].id;
    // A session with only its start: every optional field of its detail null (no person, no link, so no lifecycle).
    const bare = randomUUID();
    await s.must({
      method: 'PUT',
      path: `${INGEST}/${bare}`,
      idempotencyKey: idem(),
      body: { startTime: '2026-11-21T09:00:00Z' },
      expect: 200,
    });
    await s.send({ method: 'GET', path: `${SESSIONS}/${bare}`, expect: 200 });
    await s.send({ method: 'GET', path: `${SESSIONS}/${ingested[1].id}`, expect: 200 });
    await s.send({ method: 'GET', path: SESSIONS, query: { limit: 50 }, expect: 200 });
    // The same session id in another organization.
    await s.send({ method: 'PUT', path: `${INGEST}/${sessionId}`, key: other.key, body: bodies[0], expect: 409 });

    await s.send({
      method: 'GET',
      path: SESSIONS,
      query: {
        buying_intent: ['high', 'medium'],
        qualification_status: ['qualified', 'unqualified'],
        booked_status: ['booked', 'not_booked'],
        start_time_from: '2020-01-01T00:00:00Z',
        limit: 50,
      },
      expect: 200,
    });
    await multiValue(SESSIONS, 'buying_intent', ['high', 'medium', 'low']);
    await multiValue(SESSIONS, 'qualification_status', ['qualified', 'unqualified']);
    await multiValue(SESSIONS, 'booked_status', ['booked', 'not_booked']);
    await multiValue('/api/v1/people', 'buying_intent', ['high', 'medium', 'low']);
    await multiValue('/api/v1/people', 'qualification_status', ['qualified', 'unqualified']);
    await s.send({
      method: 'GET',
      path: SESSIONS,
      query: { email: 'acme.com', updated_since: '2020-01-01T00:00:00.000Z' },
      expect: 200,
    });
    await s.send({ method: 'GET', path: `${SESSIONS}/${sessionId}`, expect: 200 });
    await s.send({ method: 'GET', path: `${SESSIONS}/${sessionId}/transcript`, expect: 200 });
    await s.send({ method: 'GET', path: `${LINKS}/${ada.id}/sessions`, query: { limit: 10 }, expect: 200 });
    await s.send({
      method: 'GET',
      path: '/api/v1/people',
      query: { buying_intent: ['high', 'medium'], qualification_status: ['qualified', 'unqualified'], limit: 50 },
      expect: 200,
    });
    await s.send({ method: 'GET', path: `/api/v1/people/${ingested[0].personId}`, expect: 200 });
    await s.send({ method: 'GET', path: '/api/v1/accounts', query: { limit: 10 }, expect: 200 });
    await s.send({ method: 'GET', path: '/api/v1/accounts/acme.com', expect: 200 });
    // Date filters take a date as well as an instant (docs/api.md §1.1: "a date (`2026-11-22`, meaning midnight UTC)").
    await s.send({
      method: 'GET',
      path: SESSIONS,
      query: { start_time_from: '2020-01-01', start_time_to: '2099-12-31', updated_since: '2020-01-01' },
      expect: 200,
    });
    await s.send({
      method: 'GET',
      path: '/api/v1/people',
      query: { last_seen_from: '2020-01-01', last_seen_to: '2099-12-31', updated_since: '2020-01-01' },
      expect: 200,
    });
    await s.send({
      method: 'GET',
      path: LINKS,
      query: { created_from: '2020-01-01', created_to: '2099-12-31', updated_since: '2020-01-01' },
      expect: 200,
    });
    await s.send({ method: 'GET', path: '/api/v1/accounts', query: { updated_since: '2020-01-01' }, expect: 200 });

    const at = new Date().toISOString();
    const events = [
      { eventId: `prism-${runId}-1`, type: 'open', customLinkId: ada.id, occurredAt: at, visitorId: 'v-1' },
      {
        eventId: `prism-${runId}-2`,
        type: 'page_view',
        customLinkId: ada.id,
        occurredAt: at,
        pageViewId: 'pv-1',
        visitorId: 'v-1',
        sessionId,
      },
      { eventId: `prism-${runId}-3`, type: 'lead_submitted', customLinkId: ada.id, occurredAt: at, visitorId: 'v-1' },
    ];
    await s.send({ method: 'POST', path: '/api/v1/events', idempotencyKey: idem(), body: { events }, expect: 202 });
    await s.send({
      method: 'GET',
      path: `${LINKS}/${ada.id}/events`,
      query: { type: ['open', 'page_view'], include_bots: true, limit: 50 },
      expect: 200,
    });
    await multiValue(`${LINKS}/${ada.id}/events`, 'type', ['open', 'page_view', 'lead_submitted']);
    // The campaign's engagement as the document describes it once the events are folded (main's workers).
    await folded(main.app, tenant.organizationId);
    // The account's engagement and activity (its people's sessions, its links' events), walked by cursor.
    await s.send({ method: 'GET', path: '/api/v1/accounts/acme.com', expect: 200 });
    const firstActivity = (
      await s.must({ method: 'GET', path: '/api/v1/accounts/acme.com/activity', query: { limit: 2 }, expect: 200 })
    ).body;
    await s.send({
      method: 'GET',
      path: '/api/v1/accounts/acme.com/activity',
      query: { limit: 50, cursor: firstActivity.nextCursor },
      expect: 200,
    });
    await s.send({ method: 'GET', path: `${CAMPAIGNS}/${campaignId}/engagement`, expect: 200 });
    await s.send({
      method: 'GET',
      path: '/api/v1/analytics/funnel',
      query: {
        from: '2020-01-01T00:00:00Z',
        to: new Date(Date.now() + 86_400_000).toISOString(),
        campaign_id: campaignId,
      },
      expect: 200,
    });
    await s.send({
      method: 'GET',
      path: '/api/v1/analytics/funnel',
      query: { from: '2020-01-01', to: '2099-12-31' },
      expect: 200,
    });
    // Analytics (docs/api.md §6.9): a time series with a comparison, a dimension with filters, CSV.
    const lastWeek = {
      from: new Date(Date.now() - 7 * 86_400_000).toISOString(),
      to: new Date(Date.now() + 3_600_000).toISOString(),
    };
    await s.send({
      method: 'GET',
      path: '/api/v1/analytics',
      query: {
        metrics: ['opens', 'visitors'],
        group_by: 'time',
        interval: 'day',
        timezone: 'Europe/Berlin',
        compare: 'previous',
        ...lastWeek,
      },
      expect: 200,
    });
    await s.send({
      method: 'GET',
      path: '/api/v1/analytics',
      query: {
        metrics: ['leads', 'sessions'],
        group_by: 'link',
        campaign_id: [campaignId],
        include_bots: true,
        limit: 5,
        ...lastWeek,
      },
      expect: 200,
    });
    await s.send({
      method: 'GET',
      path: '/api/v1/analytics',
      query: { metrics: ['opens'], group_by: 'country', format: 'csv', ...lastWeek },
      expect: 200,
    });

    const started = (
      await s.must({
        method: 'POST',
        path: EXPORTS,
        idempotencyKey: idem(),
        body: { resource: 'sessions', format: 'csv', filters: { buying_intent: 'high,medium' } },
        expect: 202,
      })
    ).body;
    // Exports need an Idempotency-Key (a required header).
    await s.send({
      method: 'POST',
      path: EXPORTS,
      body: { resource: 'sessions', format: 'csv' },
      expect: 400,
      invalid: true,
    });
    const finished = await pollUntil(
      () => s.must({ method: 'GET', path: `${EXPORTS}/${started.id}`, expect: 200 }),
      (res) => res.body.status === 'completed' || res.body.status === 'failed',
    );
    expect(finished.body.status).toBe('completed');
    await s.send({
      method: 'GET',
      path: `${EXPORTS}/${started.id}`,
      headers: { 'if-none-match': String(finished.headers.get('etag')) },
      expect: 304,
    });
    await s.send({ method: 'GET', path: `${EXPORTS}/${started.id}/download`, expect: 200 });

    const delivered = await pollUntil(
      () =>
        s.must({
          method: 'GET',
          path: `${ENDPOINTS}/${endpoint.id}/deliveries`,
          query: { status: 'succeeded', limit: 10 },
          expect: 200,
        }),
      (res) => res.body.deliveries.length > 0,
      30_000,
    );
    await s.send({
      method: 'POST',
      path: `${ENDPOINTS}/${endpoint.id}/deliveries/${delivered.body.deliveries[0].id}/retry`,
      idempotencyKey: idem(),
      expect: 202,
    });
    await s.send({ method: 'GET', path: '/api/v1/usage', expect: 200 });
    const internalTraffic = { ipRanges: ['203.0.113.0/24'], visitorIds: ['v-qa'], userAgentContains: ['AcmeQA'] };
    await s.send({ method: 'PUT', path: '/api/v1/settings/internal-traffic', body: internalTraffic, expect: 200 });
    await s.send({ method: 'GET', path: '/api/v1/settings/internal-traffic', expect: 200 });
    // Periods no data of this run's reaches: another spec's run for every organization deletes nothing here.
    const retention = { transcriptDays: null, sessionDays: 3650, eventDays: null };
    await s.send({ method: 'PUT', path: '/api/v1/settings/retention', body: retention, expect: 200 });
    await s.send({ method: 'GET', path: '/api/v1/settings/retention', expect: 200 });
    // An erasure of a person nobody holds: it completes with zero counts, touching no other test's data.
    const erasure = (
      await s.must({
        method: 'POST',
        path: '/api/v1/privacy/erasures',
        idempotencyKey: idem(),
        body: { email: `prism-nobody-${runId}@example.com` },
        expect: 202,
      })
    ).body;
    await s.send({ method: 'GET', path: '/api/v1/privacy/erasures', query: { limit: 10 }, expect: 200 });
    await s.send({ method: 'GET', path: `/api/v1/privacy/erasures/${erasure.id}`, expect: 200 });
    // Ada's person, sessions (one with a transcript), links and their event counts.
    await s.send({ method: 'GET', path: '/api/v1/privacy/subjects', query: { email: 'ada@acme.com' }, expect: 200 });
  });

  it('playbook, suggestions and agent publishing', async () => {
    const first = (
      await s.must({
        method: 'PUT',
        path: PLAYBOOK,
        idempotencyKey: idem(),
        body: { sections: BASE_SECTIONS },
        expect: 200,
      })
    ).body;
    await s.send({ method: 'GET', path: PLAYBOOK, expect: 200 });
    await s.send({
      method: 'PUT',
      path: PLAYBOOK,
      idempotencyKey: idem(),
      body: { sections: BASE_SECTIONS, expectedSectionsEtag: 'f'.repeat(64) },
      expect: 409,
    });
    const change = {
      changeId: 'c1',
      sectionKey: 'pricing',
      operation: 'replace',
      title: 'Pricing',
      content: 'Plans start at $12 per month.',
      rationale: 'New price list',
    };
    const group = (
      await s.must({ method: 'POST', path: GROUPS, idempotencyKey: idem(), body: { changes: [change] }, expect: 201 })
    ).body;
    await s.send({ method: 'GET', path: GROUPS, query: { limit: 10 }, expect: 200 });
    await s.send({ method: 'GET', path: `${GROUPS}/${group.id}`, expect: 200 });
    await s.send({
      method: 'POST',
      path: `${GROUPS}/${group.id}/preview`,
      idempotencyKey: idem(),
      body: { changeIds: ['c1'] },
      expect: 200,
    });
    await s.send({
      method: 'POST',
      path: `${GROUPS}/${group.id}/apply`,
      idempotencyKey: idem(),
      body: {
        changeIds: ['c1'],
        expectedSectionsEtag: first.sectionsEtag,
        expectedGenerationRevision: group.generationRevision,
      },
      expect: 200,
    });
    const version = (await s.must({ method: 'GET', path: PLAYBOOK, expect: 200 })).body.version as number;

    await s.send({ method: 'GET', path: AGENT, expect: 200 });
    await s.send({
      method: 'PUT',
      path: `${AGENT}/conversation-tests`,
      idempotencyKey: idem(),
      body: { tests: [{ name: 'greets', sectionKey: 'intro', mustContain: ['hello'] }] },
      expect: 200,
    });
    const job = (
      await s.must({
        method: 'POST',
        path: PUBLISH,
        idempotencyKey: idem(),
        body: { version, confirm: 'publish-to-production' },
        expect: 202,
      })
    ).body;
    const published = await pollUntil(
      () => s.must({ method: 'GET', path: `${PUBLISH}/${job.jobId}`, expect: 200 }),
      (res) => res.body.status === 'succeeded' || res.body.status === 'failed',
    );
    expect(published.body.status).toBe('succeeded');
    await s.send({
      method: 'GET',
      path: `${PUBLISH}/${job.jobId}`,
      headers: { 'if-none-match': String(published.headers.get('etag')) },
      expect: 304,
    });
    await s.send({
      method: 'POST',
      path: PUBLISH,
      idempotencyKey: idem(),
      body: { version: version + 100, confirm: 'publish-to-production' },
      expect: 409,
    });
  });

  /** The sample's path with each parameter replaced by what `replace` gives for (its name, the sample's value, whether it is a uuid). */
  function withPath(
    op: DocumentOperation,
    sample: ApiRequest,
    replace: (name: string, value: string, isUuid: boolean) => string,
  ): string {
    const values = op.pattern.exec(sample.path)?.slice(1) ?? [];
    const names = [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    let i = 0;
    return op.template.replace(/\{[^}]+\}/g, () => {
      const name = names[i];
      const parameter = op.parameters.find((p) => p.in === 'path' && p.name === name);
      return encodeURIComponent(replace(name, values[i++], parameter?.schema?.format === 'uuid'));
    });
  }
  const hasUuidParam = (op: DocumentOperation) =>
    op.parameters.some((p) => p.in === 'path' && p.schema?.format === 'uuid');
  /** A fresh key where the sample had one: a reused key would replay or conflict. */
  const fresh = (sample: ApiRequest): Partial<ApiRequest> =>
    sample.idempotencyKey === undefined ? {} : { idempotencyKey: idem() };
  const declares = (op: DocumentOperation, status: string) => op.statuses.includes(status);
  const sampleOf = (op: DocumentOperation): ApiRequest | undefined => s.samples.get(op.key);

  it('error statuses of every operation: 401 without a key, 403 without the scope, 404 for unknown ids, 422 for bad input, 409 for a reused Idempotency-Key', async () => {
    for (const op of s.operations) {
      const sample = sampleOf(op);
      if (!sample) continue; // reported as not exercised by the last test
      if (declares(op, '401')) await s.send({ ...sample, ...fresh(sample), key: null, expect: 401, invalid: true });
      if (declares(op, '403'))
        await s.send({
          ...sample,
          ...fresh(sample),
          key: op.template.startsWith(ENDPOINTS) ? sessionsReader : webhooksReader,
          expect: 403,
        });
      if (declares(op, '404')) {
        const path = withPath(op, sample, (name, value, isUuid) =>
          isUuid
            ? UNKNOWN_ID
            : name === 'domain'
              ? `unknown-${runId}.example`
              : name === 'slug'
                ? `unknown-${runId}`
                : value,
        );
        await s.send({ ...sample, ...fresh(sample), path, expect: 404 });
      }
      if (declares(op, '422'))
        await s.send({ ...badRequest(op, sample), ...fresh(sample), expect: 422, invalid: true });
      if (declares(op, '409')) await reuseIdempotencyKey(op, sample);
    }
  });

  /**
   * A 409 for any mutation: an Idempotency-Key used again for another request of the same route. The
   * first answer is stored (a 404 for an unknown id, else a 422 for a bad body) and the second conflicts.
   * Ingestion creates a session at any id, so it takes the body way.
   */
  async function reuseIdempotencyKey(op: DocumentOperation, sample: ApiRequest): Promise<void> {
    const key = idem();
    if (hasUuidParam(op) && op.key !== `PUT ${INGEST}/{session_id}`) {
      await s.send({
        ...sample,
        path: withPath(op, sample, (_n, value, isUuid) => (isUuid ? UNKNOWN_ID : value)),
        idempotencyKey: key,
        expect: 404,
      });
      await s.send({
        ...sample,
        path: withPath(op, sample, (_n, value, isUuid) => (isUuid ? OTHER_UNKNOWN_ID : value)),
        idempotencyKey: key,
        expect: 409,
      });
    } else {
      await s.send({ ...sample, body: BAD_BODIES[op.key] ?? {}, idempotencyKey: key, expect: 422, invalid: true });
      await s.send({ ...sample, idempotencyKey: key, expect: 409 });
    }
  }

  /** The sample made invalid: a malformed id in the path, else a body that breaks the schema, else a query value out of range. */
  function badRequest(op: DocumentOperation, sample: ApiRequest): ApiRequest {
    if (op.template === '/api/v1/accounts/{domain}') return { ...sample, path: '/api/v1/accounts/ada%40acme.com' };
    if (hasUuidParam(op))
      return { ...sample, path: withPath(op, sample, (_n, value, isUuid) => (isUuid ? 'not-a-uuid' : value)) };
    if (op.hasRequestBody) return { ...sample, body: BAD_BODIES[op.key] ?? {} };
    if (op.parameters.some((p) => p.in === 'query' && p.name === 'limit'))
      return { ...sample, query: { ...sample.query, limit: 0 } };
    if (op.parameters.some((p) => p.in === 'query' && p.name === 'from'))
      return { ...sample, query: { ...sample.query, from: 'yesterday' } };
    if (op.parameters.some((p) => p.in === 'query' && p.name === 'email' && p.required))
      return { ...sample, query: { ...sample.query, email: 'not-an-email' } };
    return sample;
  }

  it('429 from an app with a budget of one request per minute per key, client and link', async () => {
    // Spend the budgets: the key's, and the client address's for link opens and cards.
    await s.send({ method: 'GET', path: CAMPAIGNS, key: limitedKey, expect: [200, 429] }, 'limited');
    await s.send({ method: 'GET', path: `/l/unknown-${runId}`, key: null, expect: [404, 429] }, 'limited');
    await s.send({ method: 'GET', path: `/thumbnails/${UNKNOWN_ID}/x.png`, key: null, expect: [404, 429] }, 'limited');
    for (const op of s.operations) {
      if (!declares(op, '429')) continue;
      const isPublic = !declares(op, '401');
      const sample =
        sampleOf(op) ??
        (op.template === '/l/{slug}'
          ? { method: 'GET' as const, path: `/l/unknown-${runId}`, expect: 429 }
          : undefined);
      if (!sample) continue;
      const req: ApiRequest = { ...sample, ...fresh(sample), key: isPublic ? null : limitedKey, expect: 'any' };
      // A window may have just turned over: the first request then spends the new one.
      const first = await s.send(req, 'limited');
      if (first.status !== 429) await s.send({ ...req, ...fresh(sample), expect: 429 }, 'limited');
    }
  });

  it('exercised every operation and declared error status, and Prism found no violation', () => {
    const uncovered: string[] = [];
    for (const op of s.operations) {
      const statuses = s.covered.get(op.key);
      if (!statuses) {
        uncovered.push(`${op.key}: never requested`);
        continue;
      }
      if (![...statuses].some((status) => status >= 200 && status < 400))
        uncovered.push(`${op.key}: no successful answer`);
      for (const status of ERROR_STATUSES) {
        if (declares(op, status) && !statuses.has(Number(status)) && !NOT_EXERCISED[`${op.key} ${status}`])
          uncovered.push(`${op.key}: declared ${status} never answered`);
      }
    }
    const report: ScenarioReport & { directRequests: typeof DIRECT_REQUESTS; notExercised: typeof NOT_EXERCISED } = {
      ...s.report(uncovered),
      directRequests: DIRECT_REQUESTS,
      notExercised: NOT_EXERCISED,
    };
    mkdirSync(join(REPORT, '..'), { recursive: true });
    writeFileSync(REPORT, `${JSON.stringify(report, null, 2)}\n`);

    expect(s.requests.direct).toBe(DIRECT_REQUESTS.length);
    expect(report.uncovered).toEqual([]);
    expect(report.scenarioFailures).toEqual([]);
    expect(report.groupedViolations).toEqual([]);
    expect(report.groupedErrorsModeRefusals).toEqual([]);
  });
});
