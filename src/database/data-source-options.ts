import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

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
    extra: { max: poolSize, application_name: 'engagement-api' },
  };
}
