import { Controller, Get, type INestApplication } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ANY_KEY, PUBLIC_ROUTE, REQUIRED_SCOPES } from '../src/common/auth/auth.decorators';
import { isScope } from '../src/common/auth/scopes';
import { describeRoute, registeredRoutes, type Route } from './support/router-routes';
import { ALL_SCOPES, createTestApp, type TestApp } from './support/test-app';

/**
 * Deny by default (docs/api.md §5.5, §15.2): every route the app registers needs a key unless it is
 * on the explicit public list, and every controller handler declares its scopes or @Public(). Also
 * the OpenAPI document (docs/api.md §1.2) against the same walk.
 */

const UNAUTHENTICATED = { detail: 'API key required or invalid.' };
const FORBIDDEN = { detail: 'API key does not include the required scope.' };

/** Everything reachable without a key. Adding a public route means adding it here, on purpose. */
const PUBLIC_ROUTES: { label: string; matches: (path: string) => boolean }[] = [
  { label: '/healthz', matches: (path) => path === '/healthz' },
  { label: '/readyz', matches: (path) => path === '/readyz' },
  { label: '/metrics', matches: (path) => path === '/metrics' },
  { label: '/api/v1/openapi.json', matches: (path) => path === '/api/v1/openapi.json' },
  { label: '/docs*', matches: (path) => path === '/docs' || path.startsWith('/docs/') },
  { label: '/l/:slug (a link prospects open)', matches: (path) => path === '/l/:slug' },
  { label: '/thumbnails/:link_id/:file (share cards)', matches: (path) => path === '/thumbnails/:link_id/:file' },
];
const isPublic = (path: string) => PUBLIC_ROUTES.some((route) => route.matches(path));

/** Routes any valid key may call, whatever its scopes (@AnyKey()). Adding one means adding it here, on purpose. */
const ANY_KEY_ROUTES = ['GET /api/v1/usage'];

const concrete = (path: string) => path.replace(/:\w+/g, () => randomUUID());

interface Handler {
  name: string;
  scopes: unknown;
  isPublic: boolean;
  anyKey: boolean;
}

/** Every controller method that Nest routes, with the auth metadata the guards read (handler, then class). */
function controllerHandlers(app: INestApplication): Handler[] {
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const handlers: Handler[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
    if (!controller || typeof controller !== 'function') continue;
    const prototype = controller.prototype as Record<string, unknown>;
    for (const method of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[method] as object;
      if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      const metadata = (key: string): unknown =>
        Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
      handlers.push({
        name: `${controller.name}.${method}`,
        scopes: metadata(REQUIRED_SCOPES),
        isPublic: metadata(PUBLIC_ROUTE) === true,
        anyKey: metadata(ANY_KEY) === true,
      });
    }
  }
  return handlers;
}

/** Handlers that declare none of a non-empty list of known scopes, @AnyKey() or @Public(). */
function undeclared(handlers: Handler[]): string[] {
  const declaresScopes = (scopes: unknown) =>
    Array.isArray(scopes) && scopes.length > 0 && scopes.every((s) => typeof s === 'string' && isScope(s));
  return handlers.filter((h) => !h.isPublic && !h.anyKey && !declaresScopes(h.scopes)).map((h) => h.name);
}

describe('routes', () => {
  let t: TestApp;
  let routes: Route[];

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    routes = registeredRoutes(t.app);
  });
  afterAll(() => t.close());

  describe('deny by default', () => {
    it('the walk sees the resource and public routes (it is not vacuous)', () => {
      const seen = routes.map(describeRoute);
      expect(seen).toEqual(
        expect.arrayContaining([
          'GET /api/v1/custom-link-campaigns',
          'POST /api/v1/custom-link-campaigns',
          'PATCH /api/v1/custom-link-campaigns/:campaign_id',
          'DELETE /api/v1/custom-link-campaigns/:campaign_id',
          'GET /api/v1/accounts/:domain/activity',
          'GET /healthz',
          'GET /readyz',
          'GET /metrics',
          'GET /api/v1/openapi.json',
          'GET /docs',
          ...ANY_KEY_ROUTES,
        ]),
      );
      expect(seen.some((r) => r.includes('*'))).toBe(false);
      // Every public entry names something that exists: the list does not drift.
      for (const entry of PUBLIC_ROUTES) expect(routes.some((r) => entry.matches(r.path))).toBe(true);
    });

    it('every route outside the public list answers 401 without a key; every public one does not', async () => {
      const wrong: string[] = [];
      for (const route of routes) {
        const res = await request(t.server)[route.method](concrete(route.path));
        const expected = isPublic(route.path) ? 'not 401' : '401';
        const ok = isPublic(route.path)
          ? res.status !== 401 && res.status !== 403
          : res.status === 401 && res.body?.detail === UNAUTHENTICATED.detail;
        if (!ok) wrong.push(`${describeRoute(route)}: ${res.status} (expected ${expected})`);
      }
      expect(wrong).toEqual([]);
    });

    it('every route outside the public and any-key lists answers 403 to a key without scopes; any-key routes answer it 200', async () => {
      const { organizationId } = await t.createTenant([]);
      const key = await t.createKey(organizationId, []);
      const wrong: string[] = [];
      for (const route of routes.filter(
        (r) => isPublic(r.path) === false && ANY_KEY_ROUTES.includes(describeRoute(r)),
      )) {
        const res = await request(t.server)[route.method](route.path).set('x-api-key', key);
        if (res.status !== 200) wrong.push(`${describeRoute(route)}: ${res.status} (expected 200)`);
      }
      for (const route of routes.filter((r) => !isPublic(r.path) && !ANY_KEY_ROUTES.includes(describeRoute(r)))) {
        const res = await request(t.server)[route.method](concrete(route.path)).set('x-api-key', key);
        if (res.status !== 403 || res.body?.detail !== FORBIDDEN.detail)
          wrong.push(`${describeRoute(route)}: ${res.status}`);
      }
      expect(wrong).toEqual([]);
    });

    it('public routes do not care about a bad key', async () => {
      for (const path of ['/healthz', '/readyz', '/metrics', '/api/v1/openapi.json', '/docs']) {
        const res = await request(t.server)
          .get(path)
          .set('Authorization', 'Basic dXNlcjpwYXNz')
          .set('x-api-key', 'nope');
        expect([path, res.status]).toEqual([path, 200]);
      }
    });

    it('no GET answers 304 by itself: If-None-Match: * and a future If-Modified-Since get the full answer', async () => {
      const { key } = await t.createTenant(ALL_SCOPES);
      const wrong: string[] = [];
      for (const route of routes.filter((r) => r.method === 'get')) {
        const res = await request(t.server)
          .get(concrete(route.path))
          .set('x-api-key', key)
          .set('If-None-Match', '*')
          .set('If-Modified-Since', new Date(Date.now() + 86_400_000).toUTCString());
        if (res.status === 304) wrong.push(describeRoute(route));
      }
      expect(wrong).toEqual([]);
    });

    it('every controller handler declares its scopes or @Public()', () => {
      const handlers = controllerHandlers(t.app);
      expect(handlers.map((h) => h.name)).toEqual(
        expect.arrayContaining([
          'CampaignsController.list',
          'CampaignsController.create',
          'CampaignsController.rename',
          'CampaignsController.delete',
          'AccountsController.activity',
          'HealthController.live',
          'HealthController.ready',
          'MetricsController.metrics',
        ]),
      );
      expect(undeclared(handlers)).toEqual([]);
      expect(handlers.filter((h) => h.anyKey).map((h) => h.name)).toEqual(['UsageController.get']);
      // Public handlers are exactly those of the public list: no resource route is public.
      expect(
        handlers
          .filter((h) => h.isPublic)
          .map((h) => h.name)
          .sort(),
      ).toEqual([
        'HealthController.live',
        'HealthController.ready',
        'MetricsController.metrics',
        'PublicLinksController.open',
        'ThumbnailsController.thumbnail',
      ]);
    });

    describe('a handler that declares nothing', () => {
      @Controller('probe')
      class UndeclaredProbeController {
        @Get('undeclared')
        undeclared(): { reached: boolean } {
          return { reached: true };
        }
      }

      let probe: TestApp;

      beforeAll(async () => {
        probe = await createTestApp({}, { controllers: [UndeclaredProbeController] });
      });
      afterAll(() => probe.close());

      it('is caught by the reflection check', () => {
        expect(undeclared(controllerHandlers(probe.app))).toEqual(['UndeclaredProbeController.undeclared']);
      });

      it('is denied to every key, even one holding all scopes', async () => {
        expect((await request(probe.server).get('/probe/undeclared').expect(401)).body).toEqual(UNAUTHENTICATED);
        const { key } = await probe.createTenant(ALL_SCOPES);
        expect((await request(probe.server).get('/probe/undeclared').set('x-api-key', key).expect(403)).body).toEqual(
          FORBIDDEN,
        );
      });
    });
  });

  describe('OpenAPI', () => {
    interface OpenApiDocument {
      openapi: string;
      info: { version: string; title: string };
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>>;
    }

    let doc: OpenApiDocument;

    beforeAll(async () => {
      const res = await request(t.server)
        .get('/api/v1/openapi.json')
        .expect(200)
        .expect('Content-Type', /application\/json/);
      doc = res.body as OpenApiDocument;
    });

    it('is OpenAPI 3 with version 1.0.0, served without a key', () => {
      expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
      expect(doc.info.version).toBe('1.0.0');
      expect(doc.info.title).toEqual(expect.any(String));
    });

    const apiRoutes = () => routes.filter((r) => r.path.startsWith('/api/v1/') && r.path !== '/api/v1/openapi.json');
    const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

    it('documents every /api/v1 route the app registers, with its path parameters', () => {
      expect(apiRoutes().length).toBeGreaterThanOrEqual(4);
      const undocumented: string[] = [];
      for (const route of apiRoutes()) {
        const operation = doc.paths[toOpenApiPath(route.path)]?.[route.method];
        if (!operation) {
          undocumented.push(describeRoute(route));
          continue;
        }
        for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
          expect(operation.parameters).toEqual(
            expect.arrayContaining([expect.objectContaining({ name, in: 'path', required: true })]),
          );
        }
      }
      expect(undocumented).toEqual([]);
    });

    it('documents nothing that is not registered', () => {
      const registered = new Set(routes.map((r) => `${r.method} ${toOpenApiPath(r.path)}`));
      const phantom = Object.entries(doc.paths).flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => !registered.has(`${method} ${path}`))
          .map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(phantom).toEqual([]);
    });

    it('/docs serves the HTML viewer and its assets', async () => {
      const res = await request(t.server)
        .get('/docs')
        .expect(200)
        .expect('Content-Type', /text\/html/);
      expect(res.text).toMatch(/<!DOCTYPE html>/i);
      expect(res.text).toContain('swagger-ui');
      const assets = [...res.text.matchAll(/(?:src|href)="\.\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) {
        const url = new URL(asset, 'http://host/docs').pathname;
        expect([url, (await request(t.server).get(url)).status]).toEqual([url, 200]);
      }
    });
  });
});
