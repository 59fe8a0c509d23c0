import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { isScope, SCOPES, type Scope } from './common/auth/scopes';
import { summarizeError } from './common/errors/error-log';
import { RedisModule } from './common/redis/redis.module';
import { AppConfigModule } from './config/config.module';
import { loadConfigOrExit, type AppConfig } from './config/environment';
import { dataSourceOptions, migrationDataSourceOptions } from './database/data-source-options';
import { revertLastMigration, runPendingMigrations } from './database/migration-runs';
import { CitusNotInstalledError, distribute } from './database/distribution';
import { startLocalServices } from './local-services';
import { ApiKeysModule } from './modules/api-keys/api-keys.module';
import { ApiKeysService } from './modules/api-keys/api-keys.service';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { OrganizationsService } from './modules/organizations/organizations.service';

/**
 * Admin commands (docs/api.md §15.3). Each prints one JSON object on stdout; a usage or input error
 * prints `{"error": ...}` on stderr and exits 2. The key itself is printed only by key:create.
 */
class UsageError extends Error {}

@Module({})
class CliModule {
  static forRoot(config: AppConfig, extraModules: DynamicModule['imports'] = []): DynamicModule {
    return {
      module: CliModule,
      imports: [
        AppConfigModule.forRoot(config),
        TypeOrmModule.forRoot(dataSourceOptions(config.databaseUrl, 2)),
        OrganizationsModule,
        ...extraModules,
      ],
    };
  }
}

const USAGE = `usage:
  cli org:create --name NAME
  cli key:create --org ORG_ID --scopes a,b [--name LABEL]
  cli key:list --org ORG_ID
  cli key:revoke --id KEY_ID
  cli demo:seed [--org ORG_ID]
  cli events:refold --org ORG_ID
  cli retention:run [--org ORG_ID]
  cli migration:run
  cli migration:revert
  cli db:distribute
scopes: ${SCOPES.join(', ')}`;

const COMMANDS = [
  'org:create',
  'key:create',
  'key:list',
  'key:revoke',
  'demo:seed',
  'events:refold',
  'retention:run',
  'migration:run',
  'migration:revert',
  'db:distribute',
];

/** Commands that use keys, and so Redis: key creations and revocations are announced to the API instances' key caches. */
const KEY_COMMANDS = ['key:create', 'key:list', 'key:revoke', 'demo:seed', 'events:refold', 'retention:run'];
/** Commands that need the ingestion stack (Redis, limits, rollups, the fold). */
const STACK_COMMANDS = ['demo:seed', 'events:refold', 'retention:run'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name]?.trim();
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function requiredUuid(values: Record<string, string | undefined>, name: string): string {
  const value = required(values, name);
  if (!UUID.test(value)) throw new UsageError(`--${name} must be a UUID`);
  return value.toLowerCase();
}

function parseScopes(raw: string): Scope[] {
  const scopes = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (scopes.length === 0 || unknown.length > 0)
    throw new UsageError(`unknown scopes: ${unknown.join(', ') || '(none given)'}`);
  return scopes as Scope[];
}

async function run(argv: string[]): Promise<unknown> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { name: { type: 'string' }, org: { type: 'string' }, scopes: { type: 'string' }, id: { type: 'string' } },
    strict: true,
  });
  if (!command || !COMMANDS.includes(command)) throw new UsageError(USAGE);

  const config = loadConfigOrExit();
  // Without DATABASE_URL / REDIS_URL the CLI reaches the embedded services the server uses,
  // starting them (and migrating) when no server runs; org:create and migrations need no Redis.
  const services = await startLocalServices(config, {
    migrate: !command.startsWith('migration:') && command !== 'db:distribute',
    redis: KEY_COMMANDS.includes(command),
  });
  try {
    if (command === 'db:distribute') return await distribution(config);
    return command.startsWith('migration:')
      ? await migrations(config, command)
      : await adminCommand(config, command, values);
  } finally {
    await services.release();
  }
}

/**
 * Schema changes from the built tree (no rebuild): `{applied: [names]}` (on Citus with the
 * distribution step's `distribution`) or `{reverted: name | null}`.
 */
async function migrations(config: AppConfig, command: string): Promise<unknown> {
  const dataSource = new DataSource(migrationDataSourceOptions(config.databaseUrl));
  await dataSource.initialize();
  try {
    if (command === 'migration:run') return await runPendingMigrations(dataSource);
    return { reverted: await revertLastMigration(dataSource) };
  } finally {
    await dataSource.destroy();
  }
}

/** The Citus distribution of the migrated schema (docs/scaling.md); without statement timeouts, as migrations. */
async function distribution(config: AppConfig): Promise<unknown> {
  const dataSource = new DataSource(dataSourceOptions(config.databaseUrl, 1));
  await dataSource.initialize();
  try {
    return await distribute(dataSource).catch((error: unknown) => {
      throw error instanceof CitusNotInstalledError ? new UsageError(error.message) : error;
    });
  } finally {
    await dataSource.destroy();
  }
}

async function adminCommand(
  config: AppConfig,
  command: string,
  values: Record<string, string | undefined>,
): Promise<unknown> {
  // demo:seed, events:refold and retention:run need the ingestion stack (Redis, limits, rollups); the key commands stay light.
  const demo = STACK_COMMANDS.includes(command) ? await import('./modules/demo/demo-cli.module.js') : null;
  const retention = command === 'retention:run' ? await import('./modules/retention/index.js') : null;
  const modules = [
    ...(KEY_COMMANDS.includes(command) ? [RedisModule, ApiKeysModule] : []),
    ...(demo ? [demo.DemoCliModule.forRoot(config)] : []),
    ...(retention ? [retention.RetentionModule] : []),
  ];
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, modules), { logger: ['error'] });
  try {
    const organizations = app.get(OrganizationsService);
    const keys = () => app.get(ApiKeysService);
    switch (command) {
      case 'org:create':
        return await organizations.create(required(values, 'name'));
      case 'key:create': {
        const org = requiredUuid(values, 'org');
        const scopes = parseScopes(required(values, 'scopes'));
        if (!(await organizations.exists(org))) throw new UsageError(`organization ${org} not found`);
        return await keys().create(org, scopes, values.name?.trim() || null);
      }
      case 'key:list': {
        const org = requiredUuid(values, 'org');
        return { organizationId: org, keys: await keys().list(org) };
      }
      case 'key:revoke': {
        const revoked = await keys().revoke(requiredUuid(values, 'id'));
        if (!revoked) throw new UsageError('key not found');
        return revoked;
      }
      case 'demo:seed': {
        const org = values.org === undefined ? undefined : requiredUuid(values, 'org');
        if (org && !(await organizations.exists(org))) throw new UsageError(`organization ${org} not found`);
        return await app.get((demo as NonNullable<typeof demo>).DemoSeedService).seed(org);
      }
      case 'events:refold': {
        // docs/api.md §15.3: the derived engagement of the organization rebuilt from its event log.
        const org = requiredUuid(values, 'org');
        if (!(await organizations.exists(org))) throw new UsageError(`organization ${org} not found`);
        const queued = await app.get((demo as NonNullable<typeof demo>).EventFold).refold(org);
        return { organizationId: org, queuedEvents: queued };
      }
      case 'retention:run': {
        // docs/api.md §6.10: one organization's run (with its setting), or every organization's that has periods.
        const runs = app.get((retention as NonNullable<typeof retention>).RetentionService);
        if (values.org === undefined) return { organizations: await runs.runAll() };
        const org = requiredUuid(values, 'org');
        if (!(await organizations.exists(org))) throw new UsageError(`organization ${org} not found`);
        return await runs.run(org);
      }
    }
    throw new UsageError(USAGE);
  } finally {
    await app.close();
  }
}

run(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
  (error: unknown) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // Usage errors speak of the command line; any other message may quote stored values (a failed
    // query's), so only its type and code are shown.
    const message = usage && error instanceof Error ? error.message : `unexpected failure: ${summarizeError(error)}`;
    process.stderr.write(`${JSON.stringify({ error: message })}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
