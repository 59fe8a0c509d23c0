import { isPlainObject } from '@nestjs/common/utils/shared.utils';
import type { Express } from 'express';
import { createHash } from 'node:crypto';
import { METHODS, type IncomingMessage, type ServerResponse } from 'node:http';
import { Pool } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { LeanExpressAdapter } from '../src/common/http/lean-express-adapter';
import { createTestApp, type TestApp } from './support/test-app';
import { contractsOf } from './support/framework-contract';

/**
 * Contract tests on the running app: the framework internals our workarounds rely on, as NestJS,
 * Express, TypeORM and pg behave inside this app on the run's PostgreSQL. The pure-library side is in
 * src/common/framework-contracts.spec.ts. Behaviour already covered elsewhere is referenced, not repeated:
 * 405 with Allow and 404 through the filter (errors.e2e-spec.ts, "routing"), the validator through HTTP
 * (errors.e2e-spec.ts, "422 shapes" and "pagination query"), the rate-limit counters in Redis
 * (rate-limit.e2e-spec.ts).
 */

const CAMPAIGNS = '/api/v1/custom-link-campaigns';

interface RouterLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
  match(path: string): unknown;
}

describe('framework contracts in the running app', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('LeanExpressAdapter (src/common/http/lean-express-adapter.ts)', () => {
    const contract = contractsOf('LeanExpressAdapter (src/common/http/lean-express-adapter.ts)');

    contract(
      "Nest creates the app's server with the adapter's initHttpServer: req/res reach it with app.request / app.response as prototypes",
      async () => {
        const app = t.app.getHttpAdapter().getInstance() as Express;
        const seen: { req?: object; res?: object } = {};
        // Runs before Express's listener, which re-parents whatever it is given.
        const probe = (req: IncomingMessage, res: ServerResponse) => {
          seen.req = Object.getPrototypeOf(req) as object;
          seen.res = Object.getPrototypeOf(res) as object;
        };
        t.server.prependListener('request', probe);
        try {
          await request(t.server).get('/nope').expect(404);
        } finally {
          t.server.off('request', probe);
        }
        expect(t.app.getHttpAdapter()).toBeInstanceOf(LeanExpressAdapter);
        expect(seen.req).toBe(app.request);
        expect(seen.res).toBe(app.response);
      },
    );

    contract("Nest sends a handler's plain-object result through HttpAdapter.reply (the lean JSON path)", async () => {
      const { key } = await t.createTenant(['custom_links:read']);
      const adapter = t.app.getHttpAdapter() as LeanExpressAdapter;
      const reply = jest.spyOn(adapter, 'reply');
      try {
        const res = await request(t.server)
          .get(CAMPAIGNS)
          .set('x-api-key', key)
          .expect(200)
          .expect('Content-Type', 'application/json; charset=utf-8');
        const bodies = reply.mock.calls.map(([, body]) => body);
        expect(bodies.filter((body) => isPlainObject(body))).toEqual([res.body]);
      } finally {
        reply.mockRestore();
      }
    });
  });

  describe('405 through the router stack (src/common/errors/api-exception.filter.ts)', () => {
    const contract = contractsOf('ApiExceptionFilter.methodsFor (src/common/errors/api-exception.filter.ts)');
    /** As in api-exception.filter.ts: route paths that are middleware mounts, not resources. */
    const CATCH_ALL = /^[{/]*\*/;
    const routeLayers = (): RouterLayer[] => {
      const app = t.app.getHttpAdapter().getInstance() as unknown as { router?: { stack: RouterLayer[] } };
      return (app.router?.stack ?? []).filter((layer) => layer.route);
    };

    contract(
      "Nest's routes are layers of the Express app's router.stack, found for a path by layer.match, with route.methods",
      () => {
        const matching = routeLayers().filter(
          (layer) => !CATCH_ALL.test(String(layer.route!.path)) && layer.match(CAMPAIGNS),
        );
        const methods = matching.flatMap((layer) => Object.keys(layer.route!.methods)).sort();
        expect(methods).toEqual(['get', 'post']);
        const byId = routeLayers().filter(
          (layer) =>
            layer.match(`${CAMPAIGNS}/0190b3b0-7a1c-7cc0-8000-000000000001`) &&
            !CATCH_ALL.test(String(layer.route!.path)),
        );
        expect(byId.flatMap((layer) => Object.keys(layer.route!.methods)).sort()).toEqual(['delete', 'patch']);
      },
    );

    contract(
      'every route layer with a wildcard path (Nest middleware mounted for all paths) is one the filter skips as catch-all',
      () => {
        // Today Nest mounts middleware with use() (no route) and the app has no wildcard route; one the
        // filter did not recognise would match every path and add its methods to every Allow.
        const wildcards = routeLayers()
          .map((layer) => String(layer.route!.path))
          .filter((path) => path.includes('*'));
        expect(wildcards.filter((path) => !CATCH_ALL.test(path))).toEqual([]);
      },
    );

    contract(
      'no other route layer enables `_all` or every method (which would put _ALL in Allow, or hide the 405 of its path)',
      () => {
        const http = new Set(METHODS.map((method) => method.toLowerCase()));
        const offenders = routeLayers()
          .filter((layer) => !CATCH_ALL.test(String(layer.route!.path)))
          .filter((layer) => {
            const methods = Object.keys(layer.route!.methods);
            return methods.some((method) => !http.has(method)) || methods.length === http.size;
          })
          .map((layer) => String(layer.route!.path));
        expect(offenders).toEqual([]);
      },
    );
  });

  describe('preparedQuery (src/database/prepared-query.ts)', () => {
    const contract = contractsOf('preparedQuery (src/database/prepared-query.ts)');
    let single: TestApp;

    beforeAll(async () => {
      // One connection: what the app prepared is visible to the next query (prepared statements are per session).
      single = await createTestApp({ DATABASE_POOL_SIZE: '1' });
    });
    afterAll(() => single.close());

    contract(
      "TypeORM's PostgresDriver keeps the pg Pool it queries through in driver.master (pg itself, not pg-native)",
      () => {
        const driver = single.app.get(DataSource).driver as unknown as { master: unknown; postgres: unknown };
        expect(driver.master).toBeInstanceOf(Pool);
        expect((driver.master as Pool).options.max).toBe(1);
        expect((driver.postgres as { Pool: unknown }).Pool).toBe(Pool);
      },
    );

    contract(
      'a hot read leaves a named protocol-level statement per SQL in pg_prepared_statements, reused by the next request',
      async () => {
        const db = single.app.get(DataSource);
        const prepared = () =>
          db.query<{ name: string; statement: string; from_sql: boolean; executions: number }[]>(
            `SELECT name, statement, from_sql, (generic_plans + custom_plans)::int AS executions FROM pg_prepared_statements WHERE name LIKE 'q\\_%' ORDER BY name`,
          );
        const { key } = await single.createTenant(['sessions:read']);
        const before = await prepared();

        await request(single.server).get('/api/v1/sessions').set('x-api-key', key).expect(200);
        await request(single.server).get('/api/v1/sessions').set('x-api-key', key).expect(200);

        const after = (await prepared()).filter((row) => !before.some((old) => old.name === row.name));
        expect(after.length).toBeGreaterThan(0);
        for (const row of after) {
          // Named as preparedQuery names it, prepared by the driver (Parse message), not by SQL PREPARE.
          expect(row.name).toBe(`q_${createHash('sha1').update(row.statement).digest('hex').slice(0, 24)}`);
          expect(row.from_sql).toBe(false);
        }
        // The sessions page statement ran for both requests on one preparation.
        expect(Math.max(...after.map((row) => row.executions))).toBe(2);
      },
    );
  });
});
