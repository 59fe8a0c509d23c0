import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { RouteParamtypes as NestInternalRouteParamtypes } from '@nestjs/common/internal';
import { ExecutionContextHost } from '@nestjs/core/internal';
import { RouteParamsFactory } from '@nestjs/core/router/route-params-factory';
import { ExpressAdapter } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule, ApiOperation } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { ThrottlerGuard, ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import { IsString, MinLength } from 'class-validator';
import express, { type Express } from 'express';
import { createServer, IncomingMessage, METHODS, ServerResponse, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import { Query as PgQuery } from 'pg';
import request from 'supertest';
import { Caller, Public, RequireScope } from './auth/auth.decorators';
import type { Principal } from './auth/principal';
import { LeanExpressAdapter } from './http/lean-express-adapter';
import { RateLimitGuard } from './limits/rate-limit.guard';
import { PaginationQuery } from './pagination/pagination.query';
import { ParseUuidPipe } from './validation/parse-uuid.pipe';
import { RequestValidator } from './validation/request-validator';
import { RequestValidationError } from './errors/validation-issue';
import { contractsOf } from '../../test/support/framework-contract';

/**
 * Contract tests: the framework internals our workarounds rely on, asserted against the installed
 * NestJS, Express, @nestjs/throttler and pg, so an upgrade that breaks one fails here, naming the
 * assumption and the file to revisit, rather than as a slow or subtly wrong API. What needs the app or
 * the database is in test/framework-contracts.e2e-spec.ts.
 */

describe('LeanExpressAdapter (src/common/http/lean-express-adapter.ts)', () => {
  const contract = contractsOf('LeanExpressAdapter (src/common/http/lean-express-adapter.ts)');

  contract('Express exposes app.request and app.response, inheriting from IncomingMessage and ServerResponse', () => {
    const app = express();
    expect(Object.getPrototypeOf(app.request)).toBe(express.request);
    expect(Object.getPrototypeOf(app.response)).toBe(express.response);
    // Node's server constructs req/res from constructors whose prototype is app.request / app.response.
    expect(app.request).toBeInstanceOf(IncomingMessage);
    expect(app.response).toBeInstanceOf(ServerResponse);
  });

  contract(
    'Express re-parents every req/res onto exactly app.request / app.response (so pre-set prototypes are kept)',
    async () => {
      // A plain server (not the lean one): Express alone must leave req/res on these two objects.
      // The lean server's side (prototypes set before Express runs) is in lean-express-adapter.spec.ts.
      const app = express();
      app.get('/probe', (req, res) => {
        res.json({
          req: Object.getPrototypeOf(req) === app.request,
          res: Object.getPrototypeOf(res) === app.response,
          circular: res.req === req,
        });
      });
      const reply = await request(app).get('/probe').expect(200);
      expect(reply.body).toEqual({ req: true, res: true, circular: true });
    },
  );

  contract(
    "Node's IncomingMessage and ServerResponse can be called on `this` (they are functions, not classes)",
    () => {
      // subclassWithPrototype calls `base.apply(this, args)`; an ES class constructor would throw here.
      const req = Object.create(IncomingMessage.prototype) as IncomingMessage;
      expect(() =>
        (IncomingMessage as unknown as (this: object, socket: Socket) => void).call(req, new Socket()),
      ).not.toThrow();
      expect(req.headers).toEqual({});
      const res = Object.create(ServerResponse.prototype) as ServerResponse;
      expect(() =>
        (ServerResponse as unknown as (this: object, r: IncomingMessage) => void).call(res, req),
      ).not.toThrow();
      expect(res.statusCode).toBe(200);
    },
  );

  contract(
    'ExpressAdapter.initHttpServer reads only httpsOptions, return503OnClosing and forceCloseConnections',
    () => {
      // LeanExpressAdapter.initHttpServer skips Nest's own setup unless one of these is set. A new option
      // read here would be silently ignored by the lean server.
      const source = ExpressAdapter.prototype.initHttpServer.toString();
      const read = new Set([...source.matchAll(/\boptions\??\.(\w+)/g)].map((match) => match[1]));
      expect([...read].sort()).toEqual(['forceCloseConnections', 'httpsOptions', 'return503OnClosing']);
    },
  );

  contract(
    'without those options, ExpressAdapter.initHttpServer only wraps the app in an http server (what the lean one does)',
    () => {
      const adapter = new ExpressAdapter();
      const app = adapter.getInstance<Express>();
      const layersBefore = app.router.stack.length;
      const stateBefore = new Map(Object.entries(adapter));
      adapter.initHttpServer({});
      const server = adapter.getHttpServer() as Server;
      // The same listeners as a bare createServer(app): nothing on connections, requests, closing.
      const bare = createServer(app);
      const events = [...new Set([...server.eventNames(), ...bare.eventNames()])];
      expect(events.map((event) => [event, server.listenerCount(event)])).toEqual(
        events.map((event) => [event, bare.listenerCount(event)]),
      );
      expect(server.listeners('request')).toEqual([app]);
      // No middleware added, and no adapter state but the server.
      expect(app.router.stack.length).toBe(layersBefore);
      const changed = Object.entries(adapter)
        .filter(([key, value]) => stateBefore.get(key) !== value || !stateBefore.has(key))
        .map(([key]) => key);
      expect(changed).toEqual(['httpServer']);
    },
  );

  contract(
    "ExpressAdapter.reply sends a plain object or array exactly as LeanExpressAdapter.reply does (res.json's defaults)",
    async () => {
      const body = {
        text: 'é <b> & "quoted" \u2028 \u{1F600}',
        list: [1, 2.5, null, true],
        nested: { at: new Date(0) },
        empty: {},
      };
      const replies = [];
      for (const adapter of [new ExpressAdapter(), new LeanExpressAdapter()]) {
        adapter.initHttpServer({});
        const app = adapter.getInstance<Express>();
        app.get('/object', (_req, res) => adapter.reply(res, body, 201));
        app.get('/array', (_req, res) => adapter.reply(res, [body, 'x']));
        const server = adapter.getHttpServer() as Server;
        for (const path of ['/object', '/array']) {
          const res = await request(server).get(path);
          replies.push({
            path,
            status: res.status,
            type: res.headers['content-type'],
            length: res.headers['content-length'],
            text: res.text,
          });
        }
      }
      const [standardObject, standardArray, leanObject, leanArray] = replies;
      expect(leanObject).toEqual(standardObject);
      expect(leanArray).toEqual(standardArray);
      expect(standardObject).toMatchObject({
        status: 201,
        type: 'application/json; charset=utf-8',
        text: JSON.stringify(body),
      });
    },
  );
});

class ContractBody {
  @IsString()
  @MinLength(1)
  name!: string;
}

@Controller('contract')
class ContractController {
  @Post(':id')
  handle(
    @Param('id', ParseUuidPipe) id: string,
    @Query() query: PaginationQuery,
    @Body() body: ContractBody,
    @Caller() caller: Principal,
  ): unknown {
    return { id, query, body, caller };
  }
}

describe('RequestValidator (src/common/validation/request-validator.ts, request-validation.guard.ts)', () => {
  const contract = contractsOf('RequestValidator (src/common/validation/request-validator.ts)');
  /** The argument Nest builds for a parameter decorated with `paramtype` and no data (`@Query()`, `@Body()`). */
  const argumentOf = (paramtype: RouteParamtypes, req: object): unknown =>
    new RouteParamsFactory().exchangeKeyForValue(paramtype, undefined as unknown as string, {
      req,
      res: {},
      next: () => undefined,
    });

  contract(
    'Nest keeps @Param/@Query/@Body under ROUTE_ARGS_METADATA on the controller class, keyed "<RouteParamtypes>:<index>" with { index, data, pipes }',
    () => {
      const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, ContractController, 'handle') as Record<string, unknown>;
      const builtIn = Object.fromEntries(
        Object.entries(args).filter(([key]) => !Number.isNaN(Number(key.split(':')[0]))),
      );
      expect(builtIn).toEqual({
        [`${RouteParamtypes.PARAM}:0`]: { index: 0, data: 'id', pipes: [ParseUuidPipe] },
        [`${RouteParamtypes.QUERY}:1`]: { index: 1, data: undefined, pipes: [] },
        [`${RouteParamtypes.BODY}:2`]: { index: 2, data: undefined, pipes: [] },
      });
    },
  );

  contract(
    'custom param decorators (createParamDecorator, e.g. @Caller()) use keys whose first part is not a RouteParamtypes number',
    () => {
      const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, ContractController, 'handle') as Record<
        string,
        { index: number }
      >;
      const custom = Object.entries(args).filter(([, arg]) => arg.index === 3);
      expect(custom).toHaveLength(1);
      expect(Number(custom[0][0].split(':')[0])).toBeNaN();
    },
  );

  contract('the RouteParamtypes enum at @nestjs/common/enums/route-paramtypes.enum is the one Nest itself uses', () => {
    // The validator compares the metadata keys with this deep-imported copy; Nest's param factory uses the internal one.
    expect(RouteParamtypes).toEqual(NestInternalRouteParamtypes);
  });

  contract('the compiler emits design:paramtypes for handler parameters (the DTO classes of @Query/@Body)', () => {
    // Read under the handler's name on the prototype; jest compiles with swc, the build with tsc (both emit it).
    expect(Reflect.getMetadata('design:paramtypes', ContractController.prototype, 'handle')).toEqual([
      String,
      PaginationQuery,
      ContractBody,
      Object,
    ]);
  });

  contract('Express 5 req.query is a getter on the request prototype, which an own property shadows', () => {
    const app = express();
    expect(typeof Object.getOwnPropertyDescriptor(express.request, 'query')?.get).toBe('function');
    const req = Object.assign(Object.create(app.request) as express.Request, { url: '/x?limit=3' });
    expect(req.query).toEqual({ limit: '3' });
    const replacement = { limit: 3 };
    Object.defineProperty(req, 'query', { value: replacement, configurable: true, enumerable: true, writable: true });
    expect(req.query).toBe(replacement);
  });

  contract(
    "Nest's @Query() and @Body() read req.query / req.body when the handler's arguments are built (after guards)",
    () => {
      const req: Record<string, unknown> = { query: { raw: '1' }, body: { raw: 1 }, params: {} };
      const dto = new PaginationQuery();
      const body = new ContractBody();
      Object.defineProperty(req, 'query', { value: dto, configurable: true, enumerable: true, writable: true });
      req.body = body;
      expect(argumentOf(RouteParamtypes.QUERY, req)).toBe(dto);
      expect(argumentOf(RouteParamtypes.BODY, req)).toBe(body);
    },
  );

  // Through HTTP: test/errors.e2e-spec.ts ("one 422 lists path, then header, then body issues",
  // "coerces query strings to numbers" on a probe @Query() DTO). Here the validator alone, on Nest's
  // metadata and an Express request, as the guard calls it.
  contract(
    'RequestValidator finds the rules of a handler from its Nest metadata (context.getHandler().name, getClass())',
    () => {
      const validator = new RequestValidator();
      const app = express();
      const requestFor = (id: string, url: string, body: unknown) =>
        Object.assign(Object.create(app.request) as express.Request, {
          method: 'POST',
          url,
          params: { id },
          headers: {},
          body,
        });
      const contextFor = (req: express.Request) =>
        new ExecutionContextHost([req, {}, () => undefined], ContractController, ContractController.prototype.handle);

      let thrown: unknown;
      try {
        validator.validate(contextFor(requestFor('not-a-uuid', '/contract/not-a-uuid?limit=0', { name: '' })));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RequestValidationError);
      expect((thrown as RequestValidationError).issues.map((issue) => issue.loc)).toEqual([
        ['path', 'id'],
        ['query', 'limit'],
        ['body', 'name'],
      ]);

      const valid = requestFor('0190b3b0-7a1c-7cc0-8000-000000000001', '/contract/x?limit=7&limit=9', { name: 'ok' });
      validator.validate(contextFor(valid));
      const query = argumentOf(RouteParamtypes.QUERY, valid);
      expect(query).toBeInstanceOf(PaginationQuery);
      expect(query).toEqual(Object.assign(new PaginationQuery(), { limit: 9, offset: 0 }));
      expect(argumentOf(RouteParamtypes.BODY, valid)).toBeInstanceOf(ContractBody);
    },
  );
});

describe('RateLimitGuard (src/common/limits/rate-limit.guard.ts)', () => {
  const contract = contractsOf('RateLimitGuard (src/common/limits/rate-limit.guard.ts)');
  const LIMIT = 5;
  const TTL_MS = 60_000;
  const WINDOW_END_MS = Date.parse('2030-01-01T00:01:00.000Z');

  async function compile() {
    // What RedisThrottlerStorage answers: the library's record and the window's end (WindowRecord).
    const increment = jest.fn<ReturnType<ThrottlerStorage['increment']>, Parameters<ThrottlerStorage['increment']>>(
      async () => ({
        totalHits: 1,
        timeToExpire: 60,
        isBlocked: false,
        timeToBlockExpire: 0,
        endsAt: WINDOW_END_MS,
        chargedAt: WINDOW_END_MS - TTL_MS,
      }),
    );
    const storage: ThrottlerStorage = { increment };
    const moduleRef = await Test.createTestingModule({
      // As LimitsModule configures it: one throttler named 'default' and our own storage.
      imports: [ThrottlerModule.forRoot({ throttlers: [{ name: 'default', ttl: TTL_MS, limit: LIMIT }], storage })],
      providers: [RateLimitGuard, ThrottlerGuard],
    }).compile();
    await moduleRef.init();
    return { moduleRef, storage, increment };
  }

  const contextFor = (req: object, res: object) =>
    new ExecutionContextHost([req, res, () => undefined], ContractController, ContractController.prototype.handle);

  contract(
    "a ThrottlerGuard subclass without a constructor gets ThrottlerGuard's injections: module options and the configured storage (storageService)",
    async () => {
      const { moduleRef, storage } = await compile();
      const guard = moduleRef.get(RateLimitGuard) as unknown as { storageService: unknown; options: unknown };
      expect(guard.storageService).toBe(storage);
      expect(guard.options).toEqual(expect.objectContaining({ storage }));
      await moduleRef.close();
    },
  );

  contract(
    'ThrottlerGuard.onModuleInit fills the protected `throttlers` with { name, limit, ttl } as configured (ttl in ms, unscaled)',
    async () => {
      const { moduleRef } = await compile();
      const guard = moduleRef.get(RateLimitGuard) as unknown as { throttlers: unknown; windows: unknown };
      expect(guard.throttlers).toEqual([expect.objectContaining({ name: 'default', limit: LIMIT, ttl: TTL_MS })]);
      expect(guard.windows).toEqual([{ name: 'default', limit: LIMIT, ttlMs: TTL_MS }]);
      await moduleRef.close();
    },
  );

  contract(
    'ThrottlerGuard charges its storage as increment(key, ttl, limit, blockDuration, throttlerName), blockDuration defaulting to ttl',
    async () => {
      // The argument order RateLimitGuard.charge uses, checked against the library's own call.
      const { moduleRef, increment } = await compile();
      const res = { header: jest.fn() };
      await moduleRef.get(ThrottlerGuard).canActivate(contextFor({ ip: '203.0.113.7', headers: {} }, res));
      expect(increment).toHaveBeenCalledTimes(1);
      expect(increment).toHaveBeenCalledWith(expect.any(String), TTL_MS, LIMIT, TTL_MS, 'default');
      await moduleRef.close();
    },
  );

  // The Redis counters (`rate:default:<key id>`) and headers through HTTP: test/rate-limit.e2e-spec.ts.
  contract(
    "RateLimitGuard's canActivate charges the storage once per authenticated request, per key, without ThrottlerGuard's per-route key",
    async () => {
      const { moduleRef, increment } = await compile();
      const guard = moduleRef.get(RateLimitGuard);
      const handleRequest = jest.spyOn(
        ThrottlerGuard.prototype as unknown as { handleRequest: () => Promise<boolean> },
        'handleRequest',
      );
      try {
        const res = { setHeader: jest.fn() };
        await expect(guard.canActivate(contextFor({ principal: { keyId: 'key-1' }, headers: {} }, res))).resolves.toBe(
          true,
        );
        await expect(guard.canActivate(contextFor({ headers: {} }, res))).resolves.toBe(true);
        expect(increment.mock.calls).toEqual([['rate:default:key-1', TTL_MS, LIMIT, TTL_MS, 'default']]);
        expect(res.setHeader).toHaveBeenCalledWith('X-RateLimit-Limit', String(LIMIT));
        expect(res.setHeader).toHaveBeenCalledWith('X-RateLimit-Reset', String(WINDOW_END_MS / 1000));
        expect(handleRequest).not.toHaveBeenCalled();
      } finally {
        handleRequest.mockRestore();
        await moduleRef.close();
      }
    },
  );
});

describe('405 through the router stack (src/common/errors/api-exception.filter.ts)', () => {
  const contract = contractsOf('ApiExceptionFilter.methodsFor (src/common/errors/api-exception.filter.ts)');
  // The app's own router (wildcard layers, no `_all`) and the 405 itself: test/framework-contracts.e2e-spec.ts
  // and test/errors.e2e-spec.ts ("answers 405 with Allow").

  interface Layer {
    route?: { path: unknown; methods: Record<string, boolean> };
    match(path: string): unknown;
  }

  function appWithRoutes(): Express {
    const app = express();
    const ok: express.RequestHandler = (_req, res) => {
      res.json({});
    };
    app.use((_req, _res, next) => next());
    app.get('/things/:id', ok);
    app.patch('/things/:id', ok);
    app.post('/things', ok);
    return app;
  }

  contract(
    'Express 5 exposes the app router as app.router, whose stack holds one layer per route (route.path, route.methods)',
    () => {
      const stack = appWithRoutes().router.stack as unknown as Layer[];
      const routes = stack
        .filter((layer) => layer.route)
        .map((layer) => ({ path: layer.route!.path, methods: { ...layer.route!.methods } }));
      expect(routes).toEqual([
        { path: '/things/:id', methods: { get: true } },
        { path: '/things/:id', methods: { patch: true } },
        { path: '/things', methods: { post: true } },
      ]);
      // Middleware (app.use) layers carry no route.
      expect(stack.filter((layer) => !layer.route).length).toBeGreaterThan(0);
    },
  );

  contract('a route layer match(path) is truthy for a path of the route and falsy otherwise, without a request', () => {
    const [byId] = (appWithRoutes().router.stack as unknown as Layer[]).filter(
      (layer) => layer.route?.path === '/things/:id',
    );
    expect(byId.match('/things/0190b3b0-7a1c-7cc0-8000-000000000001')).toBeTruthy();
    expect(byId.match('/things/1/')).toBeTruthy();
    expect(byId.match('/things/1/more')).toBeFalsy();
    expect(byId.match('/things')).toBeFalsy();
    expect(byId.match('/other/1')).toBeFalsy();
  });

  contract(
    'route.methods holds the lowercase HTTP method names of a route, enabled with true (Router.route().all() adds `_all`)',
    () => {
      const app = appWithRoutes();
      app.route('/any').all((_req, res) => {
        res.end();
      });
      const http = new Set(METHODS.map((method) => method.toLowerCase()));
      const layers = (app.router.stack as unknown as Layer[]).filter((layer) => layer.route);
      for (const layer of layers.filter((l) => l.route!.path !== '/any')) {
        for (const [method, enabled] of Object.entries(layer.route!.methods))
          expect([method, http.has(method), enabled]).toEqual([method, true, true]);
      }
      // The filter lists every enabled key in upper case: a route().all() route would put `_ALL` in Allow
      // (app.all() instead enables every method, so its path never answers 405). The app has neither:
      // test/framework-contracts.e2e-spec.ts checks its routes.
      expect(layers.find((l) => l.route!.path === '/any')!.route!.methods).toEqual({ _all: true });
    },
  );

  contract('Express answers HEAD through a GET route (the filter lists HEAD whenever GET is allowed)', async () => {
    await request(appWithRoutes()).head('/things/1').expect(200);
  });
});

@Public()
@Controller('open')
class OpenController {
  @Get()
  list(): unknown {
    return [];
  }
}

@Controller('mixed')
class MixedController {
  @Get('open')
  @Public()
  open(): unknown {
    return {};
  }

  @Public()
  @Get('documented')
  @ApiOperation({ summary: 'Documented' })
  documented(): unknown {
    return {};
  }

  @Get('keyed')
  @RequireScope('sessions:read')
  keyed(): unknown {
    return {};
  }
}

describe('Public() in the OpenAPI document (src/common/auth/auth.decorators.ts)', () => {
  const contract = contractsOf('Public() / ApiNoSecurity (src/common/auth/auth.decorators.ts)');

  contract(
    "an empty class-level DECORATORS.API_SECURITY, or `security: []` in a handler's DECORATORS.API_OPERATION, gives its operations `security: []`",
    async () => {
      const moduleRef = await Test.createTestingModule({ controllers: [OpenController, MixedController] }).compile();
      const app = moduleRef.createNestApplication({ logger: false });
      await app.init();
      try {
        const document = SwaggerModule.createDocument(
          app,
          new DocumentBuilder()
            .addBearerAuth({ type: 'http', scheme: 'bearer' }, 'bearer')
            .addSecurityRequirements('bearer')
            .build(),
        );
        expect(document.security).toEqual([{ bearer: [] }]);
        expect(document.paths['/open'].get?.security).toEqual([]);
        expect(document.paths['/mixed/open'].get?.security).toEqual([]);
        // The handler's own operation metadata is kept, whichever decorator comes first.
        expect(document.paths['/mixed/documented'].get).toMatchObject({ security: [], summary: 'Documented' });
        expect(document.paths['/mixed/keyed'].get).not.toHaveProperty('security');
      } finally {
        await app.close();
      }
    },
  );
});

describe('JsonBodyReader (src/common/validation/json-body.ts)', () => {
  const contract = contractsOf('JsonBodyReader (src/common/validation/json-body.ts)');

  contract(
    "body-parser skips a request without a body by type-is's hasBody: a Transfer-Encoding, or a numeric Content-Length",
    () => {
      // JsonBodyReader applies the same test itself so that requests without a body cost no promise.
      // body-parser's own copy of type-is, which ships no types.
      const { hasBody } = createRequire(require.resolve('body-parser'))('type-is') as {
        hasBody(req: { headers: Record<string, string> }): boolean;
      };
      const cases: [Record<string, string>, boolean][] = [
        [{}, false],
        [{ 'content-type': 'application/json' }, false],
        [{ 'content-length': '12' }, true],
        [{ 'content-length': '0' }, true],
        [{ 'transfer-encoding': 'chunked' }, true],
        [{ 'content-length': 'x' }, false],
      ];
      expect(cases.map(([headers]) => [headers, hasBody({ headers })])).toEqual(cases);
    },
  );
});

describe('preparedQuery (src/database/prepared-query.ts)', () => {
  const contract = contractsOf('preparedQuery (src/database/prepared-query.ts)');

  contract("pg's Query takes a prepared statement's name from its config and always prepares a named query", () => {
    // The fields and method are not in @types/pg: they are what pg's Client reads when it sends a query.
    type QueryInternals = { name?: string; text: string; values?: unknown[]; requiresPreparation(): boolean };
    const query = new PgQuery({
      name: 'q_contract',
      text: 'SELECT $1::int AS n',
      values: [1],
    }) as unknown as QueryInternals;
    expect(query.name).toBe('q_contract');
    expect(query.text).toBe('SELECT $1::int AS n');
    expect(query.values).toEqual([1]);
    expect(query.requiresPreparation()).toBe(true);
    // A name prepares even without parameters; a plain text query without one is not prepared.
    expect(
      (new PgQuery({ name: 'q_plain', text: 'SELECT 1' }) as unknown as QueryInternals).requiresPreparation(),
    ).toBe(true);
    expect((new PgQuery({ text: 'SELECT 1' }) as unknown as QueryInternals).requiresPreparation()).toBe(false);
  });
});
