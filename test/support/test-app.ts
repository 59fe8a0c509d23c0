import type { DynamicModule, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { DestinationStream } from 'pino';
import { join } from 'node:path';
import { AppModule } from '../../src/app.module';
import { SCOPES, type Scope } from '../../src/common/auth/scopes';
import { LeanExpressAdapter } from '../../src/common/http/lean-express-adapter';
import { loadConfig, type AppConfig } from '../../src/config/environment';
import { validateResponsesAgainstContract } from './openapi-contract';
import { eventually } from './poll';

export { eventually };
import { configureHttpApp } from '../../src/http-app';
import { ApiKeysService } from '../../src/modules/api-keys/api-keys.service';
import { OrganizationsService } from '../../src/modules/organizations/organizations.service';
import { RENDER_WORKER, type RenderWorker } from '../../src/modules/thumbnails/card-renderer';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  server: Server;
  /** A new organization with a key holding `scopes` (all scopes by default). */
  createTenant(scopes?: Scope[]): Promise<Tenant>;
  createKey(organizationId: string, scopes: Scope[]): Promise<string>;
  close(): Promise<void>;
}

export interface Tenant {
  organizationId: string;
  key: string;
}

export const ALL_SCOPES: Scope[] = [...SCOPES];

/**
 * Card-drawing threads run JavaScript, not the TypeScript sources jest runs: apps that render use the
 * built render worker (`npm run build` first, as for the worker processes of worker-process.ts).
 */
export const BUILT_RENDER_WORKER: RenderWorker = {
  script: join(__dirname, '..', '..', 'dist/src/modules/thumbnails/rendering/render-worker.js'),
};

export interface TestAppOptions {
  /** Test-only probe routes (they go through the same global pipeline). */
  controllers?: Type[];
  /** Providers replaced by value, e.g. a stub render worker or a logo fetcher with another address policy. */
  overrides?: { provide: unknown; useValue: unknown }[];
  /**
   * Receives the log lines (with a LOG_LEVEL in `env`). The logger is one per test file
   * (nestjs-pino keeps the first), so a spec that reads logs creates that app first.
   */
  logDestination?: DestinationStream;
  /** Modules the app does not load in its role (e.g. the demo seeder). */
  imports?: (Type | DynamicModule)[];
}

/**
 * The whole app through @nestjs/testing, configured exactly as main.ts configures it, on the run's
 * database and Redis. `env` overrides variables (e.g. a small limit) for this instance.
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', APP_ROLE: 'api', ...env });
  const overrides = new Map<unknown, unknown>([
    [RENDER_WORKER, BUILT_RENDER_WORKER],
    ...(options.overrides ?? []).map((o): [unknown, unknown] => [o.provide, o.useValue]),
  ]);
  const renderWorker = overrides.get(RENDER_WORKER) as RenderWorker;
  if (config.appRole !== 'api' && typeof renderWorker.script === 'string' && !existsSync(renderWorker.script)) {
    throw new Error(`${renderWorker.script} is missing: run \`npm run build\` before tests that render share cards`);
  }
  let builder = Test.createTestingModule({
    imports: [AppModule.forRole(config, { logDestination: options.logDestination }), ...(options.imports ?? [])],
    controllers: options.controllers ?? [],
  });
  for (const [token, value] of overrides) builder = builder.overrideProvider(token).useValue(value);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(new LeanExpressAdapter(), { bodyParser: false });
  configureHttpApp(app);
  await app.init();
  validateResponsesAgainstContract(app.getHttpServer() as Server);
  const organizations = app.get(OrganizationsService);
  const keys = app.get(ApiKeysService);
  const createKey = async (organizationId: string, scopes: Scope[]) =>
    (await keys.create(organizationId, scopes, 'test')).key;
  return {
    app,
    config,
    server: app.getHttpServer() as Server,
    createKey,
    async createTenant(scopes = ALL_SCOPES) {
      const organization = await organizations.create(`Test org ${Math.random().toString(36).slice(2, 8)}`);
      return { organizationId: organization.id, key: await createKey(organization.id, scopes) };
    },
    close: () => app.close(),
  };
}

/** Reads with `read` until `done` holds for what it returns (or the deadline passes), and returns that value. */
export async function readUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  let last: T | undefined;
  await eventually(async () => done((last = await read())), timeoutMs);
  return last as T;
}
