import type { DynamicModule, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { AppModule } from '../../src/app.module';
import { SCOPES, type Scope } from '../../src/common/auth/scopes';
import { LeanExpressAdapter } from '../../src/common/http/lean-express-adapter';
import { loadConfig, type AppConfig } from '../../src/config/environment';
import { configureHttpApp } from '../../src/http-app';
import { ApiKeysService } from '../../src/modules/api-keys/api-keys.service';
import { OrganizationsService } from '../../src/modules/organizations/organizations.service';

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
 * The whole app through @nestjs/testing, configured exactly as main.ts configures it, on the run's
 * database and Redis. `env` overrides variables (e.g. a small limit) for this instance;
 * `controllers` adds test-only probe routes (they go through the same global pipeline) and
 * `imports` modules the app does not load in its role (e.g. the demo seeder).
 */
export async function createTestApp(env: Record<string, string> = {}, options: { controllers?: Type[]; imports?: (Type | DynamicModule)[] } = {}): Promise<TestApp> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', APP_ROLE: 'api', ...env });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRole(config), ...(options.imports ?? [])], controllers: options.controllers ?? [] }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(new LeanExpressAdapter(), { bodyParser: false });
  configureHttpApp(app);
  await app.init();
  const organizations = app.get(OrganizationsService);
  const keys = app.get(ApiKeysService);
  const createKey = async (organizationId: string, scopes: Scope[]) => (await keys.create(organizationId, scopes, 'test')).key;
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

/** Polls `check` until it returns true or the deadline passes (no fixed sleeps in tests). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`Condition not met within ${timeoutMs} ms`);
}

/** Reads with `read` until `done` holds for what it returns (or the deadline passes), and returns that value. */
export async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  let last: T | undefined;
  await eventually(async () => done((last = await read())), timeoutMs);
  return last as T;
}
