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
// The redirect: GET /l/{slug} charges the route's two windows (per client address, per link) through
// the service's LimitsService, calls PublicLinksService.open (the slug lookup and the queued open,
// with its bot check, context and internal-traffic rules) and answers 302 to the experience URL.
// What it leaves out there too: Nest, express (its query parser, trust proxy: the peer is the client),
// helmet, request logging and metrics.
//
// Routes: GET /l/:slug, GET /api/v1/sessions, /api/v1/sessions/:id, /api/v1/sessions/:id/transcript,
// /api/v1/people, /api/v1/accounts/:domain, /api/v1/custom-links,
// /api/v1/custom-link-campaigns/:id/engagement, /api/v1/analytics (AnalyticsService.answer: the same
// SQL, its zone check and buckets, computed on every request: the service keeps answers of the
// aggregates per version of them, the baseline does not); /healthz once ready.
// Usage: <the API's environment> RAW_API_KEYS=sk_live_…[,sk_live_…] PORT=3960 node bench/raw-server.js
'use strict';
const http = require('node:http');
const path = require('node:path');
const { NestFactory } = require('@nestjs/core');

/** The service's answer cache passed through: every question is computed. */
const computedEveryTime = {
  /**
   * @param {string} _organizationId
   * @param {string} _version
   * @param {object} _question
   * @param {() => Promise<unknown>} compute
   */
  remember: (_organizationId, _version, _question, compute) => compute(),
};

/**
 * A module of the built service; each use is typed as its source declares it.
 * @param {string} file
 * @returns {any}
 */
const dist = (file) => require(path.join(__dirname, '..', 'dist/src', file));
/** @type {typeof import('../src/config/environment')} */
const { loadConfig } = dist('config/environment');
/** @type {typeof import('../src/app.module')} */
const { AppModule } = dist('app.module');
/** @type {typeof import('../src/common/redis/redis.module')} */
const { REDIS } = dist('common/redis/redis.module');
/** @type {typeof import('../src/common/auth/principal')} */
const { PrincipalLookup } = dist('common/auth/principal');
/** @type {typeof import('../src/common/auth/api-key')} */
const { extractApiKey, hashApiKey } = dist('common/auth/api-key');
/** @type {typeof import('../src/common/auth/scopes')} */
const { grantsAny } = dist('common/auth/scopes');
/** @type {typeof import('../src/common/counters/window-counter')} */
const { WindowCounter } = dist('common/counters/window-counter');
/** @type {typeof import('../src/common/limits/redis-throttler.storage')} */
const { RedisThrottlerStorage } = dist('common/limits/redis-throttler.storage');
/** @type {typeof import('../src/common/counters/windows')} */
const { limitState } = dist('common/counters/windows');
/** @type {typeof import('../src/common/errors/domain-errors')} */
const { DomainError, LimitExceededError, rateLimitHeaders } = dist('common/errors/domain-errors');
/** @type {typeof import('../src/common/errors/error-response')} */
const { httpStatusOf, errorBody } = dist('common/errors/error-response');
/** @type {typeof import('../src/modules/sessions/sessions.service')} */
const { SessionsService } = dist('modules/sessions/sessions.service');
/** @type {typeof import('../src/modules/sessions/dto/session-list.query')} */
const { SessionListQuery } = dist('modules/sessions/dto/session-list.query');
/** @type {typeof import('../src/modules/people/people.service')} */
const { PeopleService } = dist('modules/people/people.service');
/** @type {typeof import('../src/modules/people/dto/people-list.query')} */
const { PeopleListQuery } = dist('modules/people/dto/people-list.query');
/** @type {typeof import('../src/modules/accounts/accounts.service')} */
const { AccountsService } = dist('modules/accounts/accounts.service');
/** @type {typeof import('../src/modules/custom-links/custom-links.service')} */
const { CustomLinksService } = dist('modules/custom-links/custom-links.service');
/** @type {typeof import('../src/modules/custom-links/dto/custom-link-list.query')} */
const { CustomLinkListQuery } = dist('modules/custom-links/dto/custom-link-list.query');
/** @type {typeof import('../src/modules/engagement/engagement.service')} */
const { EngagementService } = dist('modules/engagement/engagement.service');
/** @type {typeof import('../src/modules/custom-links/public-links.service')} */
const { PublicLinksService } = dist('modules/custom-links/public-links.service');
/** @type {typeof import('../src/modules/engagement')} */
const { utmOfQuery } = dist('modules/engagement');
/** @type {typeof import('../src/modules/engagement/analytics.service')} */
const { AnalyticsService } = dist('modules/engagement/analytics.service');
/** @type {typeof import('../src/modules/engagement/analytics.repository')} */
const { AnalyticsRepository } = dist('modules/engagement/analytics.repository');
/** @type {typeof import('../src/modules/engagement/fold-progress')} */
const { FoldProgress } = dist('modules/engagement/fold-progress');
/** @type {typeof import('../src/modules/engagement/dto/analytics.query')} */
const { AnalyticsQuery } = dist('modules/engagement/dto/analytics.query');
/** @type {typeof import('../src/common/limits/limits.service')} */
const { LimitsService } = dist('common/limits/limits.service');

const RATE_WINDOW_MS = 60_000;
const INTEGERS = new Set(['limit', 'offset']);
const COMMA_LISTS = new Set([
  'qualification_status',
  'buying_intent',
  'booked_status',
  'metrics',
  'campaign_id',
  'link_id',
  'country',
  'device_type',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'referrer_domain',
  'account_domain',
]);
const TIMESTAMPS = new Set(['from', 'to']);

/**
 * The query as the DTO holds it after its transforms: defaults, integers, comma lists (as ToCommaList), strings.
 * @template {object} T
 * @param {new () => T} Dto
 * @param {URLSearchParams} params
 * @returns {T}
 */
function queryOf(Dto, params) {
  const dto = new Dto();
  const query = /** @type {Record<string, unknown>} */ (dto);
  for (const [name, value] of params) {
    if (INTEGERS.has(name)) query[name] = Number(value);
    else if (TIMESTAMPS.has(name)) query[name] = new Date(value);
    else if (COMMA_LISTS.has(name))
      query[name] = value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0);
    else query[name] = value;
  }
  if (params.has('offset')) query.offsetGiven = true;
  return dto;
}

/**
 * @typedef {[pattern: RegExp, scopes: import('../src/common/auth/scopes').Scope[], call: (organizationId: string, params: URLSearchParams, groups: string[]) => Promise<unknown>]} Route
 */

/**
 * path pattern → the scopes the route accepts and the service call its controller makes.
 * @param {import('@nestjs/common').INestApplicationContext} app
 * @returns {Route[]}
 */
function routes(app) {
  const sessions = app.get(SessionsService, { strict: false });
  const people = app.get(PeopleService, { strict: false });
  const accounts = app.get(AccountsService, { strict: false });
  const links = app.get(CustomLinksService, { strict: false });
  const engagement = app.get(EngagementService, { strict: false });
  // The raw SQL baseline of issue 33: the service's statements for the question, computed every time
  // (its answer cache passed through).
  const analytics = new AnalyticsService(
    app.get(AnalyticsRepository, { strict: false }),
    app.get(FoldProgress, { strict: false }),
    /** @type {any} */ (computedEveryTime),
  );
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
    [
      /^\/api\/v1\/analytics$/,
      ['analytics:read'],
      async (org, params) => {
        const answer = await analytics.answer(org, queryOf(AnalyticsQuery, params));
        return 'json' in answer ? answer.json : answer.csv;
      },
    ],
  ];
}

/**
 * key hash → principal, for the keys named at start, resolved as the service resolves a cache miss.
 * @param {import('@nestjs/common').INestApplicationContext} app
 * @param {string[]} keys
 */
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

/**
 * As express's res.json sends a body: JSON text with its length.
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string | number>} [headers]
 */
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
  const publicLinks = app.get(PublicLinksService, { strict: false });
  const limits = app.get(LimitsService, { strict: false });

  /**
   * GET /l/{slug}, as PublicLinksController and its limit guard do it.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {URL} url
   * @param {string} slug
   */
  const redirect = async (req, res, url, slug) => {
    const clientAddress = req.socket.remoteAddress ?? null;
    await limits.chargeOrThrow([
      {
        key: `limit:raw-link-opens:client:${clientAddress}`,
        limit: config.limits.linkOpensPerClientPerMinute,
        ttlMs: RATE_WINDOW_MS,
      },
      {
        key: `limit:raw-link-opens:link:${slug}`,
        limit: config.limits.linkOpensPerLinkPerMinute,
        ttlMs: RATE_WINDOW_MS,
      },
    ]);
    const location = await publicLinks.open(slug, {
      method: req.method ?? 'GET',
      userAgent: req.headers['user-agent'],
      headers: req.headers,
      clientAddress,
      proxyCountry: null,
      referrer: req.headers.referer ?? null,
      utm: utmOfQuery(Object.fromEntries(url.searchParams)),
      previewToken: url.searchParams.get('preview'),
    });
    res.writeHead(302, { location, 'cache-control': 'no-store', 'content-length': 0 }).end();
  };

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   */
  const handle = async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://raw');
    if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
    const open = /^\/l\/([^/]+)$/.exec(url.pathname);
    if (open) return redirect(req, res, url, decodeURIComponent(open[1]));
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
    const body = await call(principal.organizationId, url.searchParams, (pattern.exec(url.pathname) ?? []).slice(1));
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

  const stop = () => {
    void app.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
