import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * Response headers for a JSON API that serves personal data (docs/DECISIONS.md, issue 17), the set
 * OWASP's REST Security Cheat Sheet lists, from helmet: nosniff, HSTS, Referrer-Policy: no-referrer,
 * Cross-Origin-Resource-Policy: same-origin, X-Frame-Options: DENY, no X-Powered-By, and a
 * Content-Security-Policy that allows nothing (a JSON answer never loads a script, a style or a
 * frame). helmet's headers that only mean something for an HTML document a browser renders
 * (Cross-Origin-Opener-Policy, Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies, X-XSS-Protection) are left out: each costs every answer a
 * setHeader for nothing.
 * `Cache-Control: no-store` is the default of every response, so no authenticated answer or error
 * is kept by a browser or a shared cache. A route that may be cached says so itself (share cards:
 * `public, max-age`). Polled jobs keep their ETag: a client that sends If-None-Match still gets 304;
 * no-store only stops caches from keeping a copy of their own.
 */
const API_HEADERS = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

export function apiSecurityHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  API_HEADERS(req, res, next);
}

/**
 * The Swagger UI page loads its own scripts, styles and inline images: helmet's default policy
 * allows exactly that (same-origin scripts, inline styles, data: images). Without
 * upgrade-insecure-requests, which would send a local http://localhost page's assets to https.
 * Its static assets may be cached as their server decides.
 */
const DOCS_HEADERS = helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });

export const docsSecurityHeaders: RequestHandler = (req, res, next) => {
  res.removeHeader('Cache-Control');
  DOCS_HEADERS(req, res, next);
};

/**
 * Cross-origin access for browser clients at exactly these origins (CORS_ORIGINS), with the methods
 * and headers the API uses; responses show the ETag, Location, limit and request-id headers. No
 * credentials: keys travel in headers, and the service sets no cookie.
 */
export function corsOptions(origins: string[]): CorsOptions {
  return {
    origin: origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'Authorization',
      'X-API-Key',
      'Content-Type',
      'Idempotency-Key',
      'If-None-Match',
      'If-Match',
      'X-Request-ID',
    ],
    exposedHeaders: [
      'ETag',
      'Location',
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-Request-ID',
      'Idempotent-Replayed',
    ],
    credentials: false,
    maxAge: 600,
  };
}
