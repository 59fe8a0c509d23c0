#!/usr/bin/env node
// The raw baseline of the hot reads: what the service computes for a request, without the framework.
//
// It boots the built application's modules (dist/, APP_ROLE=api, the API's own environment) as a
// Nest application context, with no HTTP adapter, and answers on node:http by calling the very
// service methods the controllers call: the same SQL through the same repositories, DataSource and
// pool, the same count strategy (CountCache in Redis), the same cursors and response mapping.
// Per request it also does the essential work the service does around that call:
// - authentication as the service does it once its principal cache is warm: the presented key
//   (extractApiKey), its SHA-256, one lookup in a map loaded at start (RAW_API_KEYS, resolved through
//   the service's own PrincipalLookup), and the route's scope check;
// - one rate-limit round trip to Redis: the service's throttler storage and Lua script
//   (RedisThrottlerStorage over WindowCounter) on the service's Redis connection, in a window of its
//   own (`rate:raw-baseline:<key id>`), with the X-RateLimit-* headers;
// - a transcript's daily-quota charge, which SessionsService.transcript runs in its statement.
// What it leaves out: Nest's HTTP pipeline and express (routing, middleware, guards, pipes and
// validation, interceptors, the exception filter), helmet's headers, request ids, request logging and
// metrics. Query parameters are read without validation (the bench sends valid ones only): integers,
// comma lists, and strings, on top of the DTO's defaults.
//
// Routes: GET /api/v1/sessions, /api/v1/sessions/:id, /api/v1/sessions/:id/transcript,
// /api/v1/people, /api/v1/accounts/:domain, /api/v1/custom-links,
// /api/v1/custom-link-campaigns/:id/engagement; /healthz once ready.
// Usage: <the API's environment> RAW_API_KEYS=sk_live_…[,sk_live_…] PORT=3960 node bench/raw-server.js
'use strict';
const http = require('node:http');
const path = require('node:path');
const { NestFactory } = require('@nestjs/core');

const dist = (file) => require(path.join(__dirname, '..', 'dist/src', file));
const { loadConfig } = dist('config/environment');
const { AppModule } = dist('app.module');
const { REDIS } = dist('common/redis/redis.module');
const { PrincipalLookup } = dist('common/auth/principal');
const { extractApiKey, hashApiKey } = dist('common/auth/api-key');
const { grantsAny } = dist('common/auth/scopes');
const { WindowCounter } = dist('common/counters/window-counter');
const { RedisThrottlerStorage } = dist('common/limits/redis-throttler.storage');
const { limitState } = dist('common/counters/windows');
const { DomainError, LimitExceededError, rateLimitHeaders } = dist('common/errors/domain-errors');
const { httpStatusOf, errorBody } = dist('common/errors/error-response');
const { SessionsService } = dist('modules/sessions/sessions.service');
const { SessionListQuery } = dist('modules/sessions/dto/session-list.query');
const { PeopleService } = dist('modules/people/people.service');
const { PeopleListQuery } = dist('modules/people/dto/people-list.query');
const { AccountsService } = dist('modules/accounts/accounts.service');
const { CustomLinksService } = dist('modules/custom-links/custom-links.service');
const { CustomLinkListQuery } = dist('modules/custom-links/dto/custom-link-list.query');
const { EngagementService } = dist('modules/engagement/engagement.service');

const RATE_WINDOW_MS = 60_000;
const INTEGERS = new Set(['limit', 'offset']);
const COMMA_LISTS = new Set(['qualification_status', 'buying_intent', 'booked_status']);

/** The query as the DTO holds it after its transforms: defaults, integers, comma lists (as ToCommaList), strings. */
function queryOf(Dto, params) {
  const query = new Dto();
  for (const [name, value] of params) {
    if (INTEGERS.has(name)) query[name] = Number(value);
    else if (COMMA_LISTS.has(name))
      query[name] = value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0);
    else query[name] = value;
  }
  if (params.has('offset')) query.offsetGiven = true;
  return query;
}

/** path pattern → the scopes the route accepts and the service call its controller makes. */
function routes(app) {
  const service = (type) => app.get(type, { strict: false });
  const [sessions, people, accounts, links, engagement] = [
    SessionsService,
    PeopleService,
    AccountsService,
    CustomLinksService,
    EngagementService,
  ].map(service);
  return [
    [
      /^\/api\/v1\/sessions$/,
      ['sessions:read'],
      (org, params) => sessions.list(org, queryOf(SessionListQuery, params)),
    ],
    [/^\/api\/v1\/sessions\/([^/]+)$/, ['sessions:read'], (org, _, [id]) => sessions.get(org, id)],
    [
      /^\/api\/v1\/sessions\/([^/]+)\/transcript$/,
      ['transcripts:read'],
      (org, _, [id]) => sessions.transcript(org, id),
    ],
    [/^\/api\/v1\/people$/, ['people:read'], (org, params) => people.list(org, queryOf(PeopleListQuery, params))],
    [
      /^\/api\/v1\/accounts\/([^/]+)$/,
      ['accounts:read'],
      (org, _, [domain]) => accounts.get(org, decodeURIComponent(domain)),
    ],
    [
      /^\/api\/v1\/custom-links$/,
      ['custom_links:read', 'custom_links:write'],
      (org, params) => links.list(org, queryOf(CustomLinkListQuery, params)),
    ],
    [
      /^\/api\/v1\/custom-link-campaigns\/([^/]+)\/engagement$/,
      ['custom_links:read', 'custom_links:write'],
      (org, _, [id]) => engagement.campaign(org, id),
    ],
  ];
}

/** key hash → principal, for the keys named at start, resolved as the service resolves a cache miss. */
async function loadPrincipals(app, keys) {
  const lookup = app.get(PrincipalLookup, { strict: false });
  const principals = new Map();
  for (const key of keys) {
    const hash = hashApiKey(key);
    const principal = await lookup.findActiveByHash(hash);
    if (!principal) throw new Error(`RAW_API_KEYS: a key (${key.slice(0, 12)}…) is unknown or revoked`);
    principals.set(hash, principal);
  }
  return principals;
}

/** As express's res.json sends a body: JSON text with its length. */
function send(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...headers,
    })
    .end(text);
}

async function main() {
  const config = loadConfig(process.env);
  const app = await NestFactory.createApplicationContext(AppModule.forRole(config), { logger: ['error'] });
  const principals = await loadPrincipals(app, (process.env.RAW_API_KEYS ?? '').split(',').filter(Boolean));
  const storage = new RedisThrottlerStorage(new WindowCounter(app.get(REDIS, { strict: false })));
  const table = routes(app);
  const requestsPerMinute = config.limits.requestsPerMinute;

  const handle = async (req, res) => {
    const url = new URL(req.url, 'http://raw');
    if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
    const key = extractApiKey(req.headers);
    const principal = key === null ? undefined : principals.get(hashApiKey(key));
    if (!principal) return send(res, 401, { detail: 'API key required or invalid.' });
    const route = table.find(([pattern]) => pattern.test(url.pathname));
    if (!route) return send(res, 404, { detail: 'Not found.' });
    const [pattern, scopes, call] = route;
    if (!grantsAny(principal.scopes, scopes))
      return send(res, 403, { detail: 'API key does not include the required scope.' });
    const record = await storage.increment(`rate:raw-baseline:${principal.keyId}`, RATE_WINDOW_MS, requestsPerMinute);
    const state = limitState({ limit: requestsPerMinute, endsAt: record.endsAt }, record.totalHits, Date.now());
    if (record.isBlocked) throw new LimitExceededError(state);
    const body = await call(principal.organizationId, url.searchParams, pattern.exec(url.pathname).slice(1));
    send(res, 200, body, rateLimitHeaders(state));
  };

  http
    .createServer((req, res) => {
      handle(req, res).catch((error) => {
        if (error instanceof DomainError) send(res, httpStatusOf(error), errorBody(error), error.headers);
        else send(res, 500, { detail: String(error?.stack ?? error) });
      });
    })
    .listen(Number(process.env.PORT || 3960), '127.0.0.1');

  const stop = () => app.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
