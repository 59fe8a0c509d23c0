import type { DataSourceOptions, Logger } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

const ignore = (): void => undefined;
const SILENT_LOGGER: Logger = { logQuery: ignore, logQueryError: ignore, logQuerySlow: ignore, logSchemaBuild: ignore, logMigration: ignore, log: ignore };

/**
 * The single definition of how we reach PostgreSQL, shared by the Nest app, the TypeORM CLI
 * (ormconfig.ts) and the tests. Schema changes go through migrations only.
 */
export function dataSourceOptions(databaseUrl: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    migrationsRun: false,
    // TypeORM logs nothing. Its loggers print statements with their parameters (emails, names, link
    // contexts) and driver messages that quote values, and one kind, migration failures, is printed
    // whatever `logging` says. Failed queries are logged where they are caught, by describeError.
    logging: false,
    logger: SILENT_LOGGER,
    extra: { max: poolSize, application_name: 'engagement-api' },
  };
}
