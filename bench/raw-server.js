#!/usr/bin/env node
// The raw baseline of the hot reads: what the service computes for a request, without the framework.
//
// It boots the built application's modules (dist/, APP_ROLE=api, the API's own environment) as a
// Nest application context, with no HTTP adapter, and answers on node:http by calling the very
// service methods the controllers call: the same SQL through the same repositories, DataSource and
// pool, the same count strategy (CountCache in Redis), the same cursors and response mapping.
// Per request it also does the work the service does around that call, with the service's own code:
// - the response headers every answer gets: the request id (requestIdMiddleware) and the security and
//   cache headers (apiSecurityHeaders: helmet's set and Cache-Control: no-store), then express's
//   content type and length (the runner compares the header names of both sides: bench/run/headers.js);
// - authentication by the service's ApiKeyGuard over the application's own PrincipalCache (its
//   lease kept by PrincipalCacheFeed, a miss looked up through PrincipalLookup, failures counted by
//   AuthFailureLimit), then the route's scope check;
// - one rate-limit round trip to Redis: the ThrottlerStorage the RateLimitGuard uses, the same
//   increment, in a window of its own (`rate:raw:<key id>`), with the X-RateLimit-* headers;
// - a transcript's daily-quota charge, which SessionsService.transcript runs in its statement.
// What it leaves out: Nest's HTTP pipeline and express (routing, the other guards, pipes and
// validation, the exception filter), request logging and metrics. Query parameters are read without
// validation (the bench sends valid ones only): integers, comma lists, and strings, on top of the
// DTO's defaults.
//
// The redirect: GET /l/{slug} reserves the route's two windows (per client address, per link) as
// PublicRouteLimitGuard does (LimitsService.reserveAllOrNone, windows of its own), calls
// PublicLinksService.open (the slug lookup and the queued open, with its bot check, context and
// internal-traffic rules) and answers 302 to the experience URL with the service's headers.
// What it leaves out there too: Nest, express (its query parser, trust proxy: the peer is the client),
// request logging and metrics.
//
// Routes: GET /l/:slug, GET /api/v1/sessions, /api/v1/sessions/:id, /api/v1/sessions/:id/transcript,
// /api/v1/people, /api/v1/accounts/:domain, /api/v1/custom-links, /api/v1/custom-links/:id,
// /api/v1/custom-link-campaigns/:id/engagement, /api/v1/analytics (AnalyticsService.answer: the same
// SQL, its zone check and buckets, computed on every request: the service keeps answers of the
// aggregates per version of them, the baseline does not); /healthz once ready.
// Usage: <the API's environment> PORT=3960 node bench/raw-server.js
'use strict';
const http = require('node:http');
const path = require('node:path');
const { NestFactory, Reflector } = require('@nestjs/core');
const { ThrottlerStorage } = require('@nestjs/throttler');

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
/** @type {typeof import('../src/common/auth/principal')} */
const { PrincipalLookup } = dist('common/auth/principal');
/** @type {typeof import('../src/common/auth/api-key.guard')} */
const { ApiKeyGuard } = dist('common/auth/api-key.guard');
/** @type {typeof import('../src/common/auth/principal-cache')} */
const { PrincipalCache } = dist('common/auth/principal-cache');
/** @type {typeof import('../src/common/auth/principal-cache-feed')} */
const { PrincipalCacheFeed } = dist('common/auth/principal-cache-feed');
/** @type {typeof import('../src/common/auth/auth-failure-limit')} */
const { AuthFailureLimit } = dist('common/auth/auth-failure-limit');
/** @type {typeof import('../src/common/http/request-id.middleware')} */
const { requestIdMiddleware } = dist('common/http/request-id.middleware');
/** @type {typeof import('../src/common/http/security-headers')} */
const { apiSecurityHeaders } = dist('common/http/security-headers');
/** @type {typeof import('../src/common/auth/scopes')} */
const { grantsAny } = dist('common/auth/scopes');
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
      /^\/api\/v1\/custom-links\/([^/]+)$/,
      ['custom_links:read', 'custom_links:write'],
      (org, _, [id]) => links.get(org, id),
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
 * The service's ApiKeyGuard over the application's own cache, feed, lookup and failure limit: a key
 * costs what it costs the service (a cache hit while the feed's lease holds, else a lookup).
 * @param {import('@nestjs/common').INestApplicationContext} app
 */
function keyGuard(app) {
  /** @template T @param {abstract new (...args: any[]) => T} type @returns {T} */
  const get = (type) => app.get(type, { strict: false });
  return new ApiKeyGuard(
    get(Reflector),
    get(PrincipalLookup),
    get(PrincipalCache),
    get(PrincipalCacheFeed),
    get(AuthFailureLimit),
  );
}

/** The handler the guard asks for route metadata (it has none: every route but the redirect needs a key). */
function rawRoute() {}

/**
 * What ApiKeyGuard reads of a Nest execution context: the handler, its class, the request.
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 * @returns {import('@nestjs/common').ExecutionContext}
 */
const contextOf = (req, res) =>
  /** @type {any} */ ({
    getHandler: () => rawRoute,
    getClass: () => rawRoute,
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  });

/**
 * The headers every answer of the service gets before routing: the request id, then the security and cache headers.
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function commonHeaders(req, res) {
  /** @type {any} */
  const expressReq = req;
  /** @type {any} */
  const expressRes = res;
  const next = () => {};
  requestIdMiddleware(expressReq, expressRes, next);
  apiSecurityHeaders(expressReq, expressRes, next);
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
  const guard = keyGuard(app);
  /** @type {import('@nestjs/throttler').ThrottlerStorage} */
  const storage = app.get(ThrottlerStorage, { strict: false });
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
    /** @param {string} key @param {number} limit */
    const window = (key, limit) => ({ windows: [{ key, limit, ttlMs: RATE_WINDOW_MS }], units: 1 });
    await limits.reserveAllOrNone(
      [
        window(`limit:raw-link-opens:client:${clientAddress}`, config.limits.linkOpensPerClientPerMinute),
        window(`limit:raw-link-opens:link:${slug}`, config.limits.linkOpensPerLinkPerMinute),
      ],
      Date.now(),
    );
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
    res.writeHead(302, { 'cache-control': 'no-store', 'content-length': 0, location }).end();
  };

  /**
   * @param {http.IncomingMessage} req
   * @param {http.ServerResponse} res
   */
  const handle = async (req, res) => {
    commonHeaders(req, res);
    const url = new URL(req.url ?? '/', 'http://raw');
    if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
    const open = /^\/l\/([^/]+)$/.exec(url.pathname);
    if (open) return redirect(req, res, url, decodeURIComponent(open[1]));
    await guard.canActivate(contextOf(req, res));
    const { principal } = /** @type {import('../src/common/auth/auth.decorators').AuthenticatedRequest} */ (
      /** @type {unknown} */ (req)
    );
    if (!principal) throw new Error('ApiKeyGuard let a request through without a principal');
    const route = table.find(([pattern]) => pattern.test(url.pathname));
    if (!route) return send(res, 404, { detail: 'Not found.' });
    const [pattern, scopes, call] = route;
    if (!grantsAny(principal.scopes, scopes))
      return send(res, 403, { detail: 'API key does not include the required scope.' });
    const record = /** @type {import('../src/common/limits/redis-throttler.storage').WindowRecord} */ (
      await storage.increment(`rate:raw:${principal.keyId}`, RATE_WINDOW_MS, requestsPerMinute, RATE_WINDOW_MS, 'raw')
    );
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
