import type { DataSourceOptions, Logger } from 'typeorm';
import type { TimeoutsConfig } from '../config/environment';
import { MIGRATIONS } from './migrations';
import { stallAwareClient } from '../common/database/stall-aware-client';

/** Client-side margin over statement_timeout: a stalled server or network is given up on shortly after. */
const READ_MARGIN_MS = 1000;
const ignore = (): void => undefined;
const SILENT_LOGGER: Logger = {
  logQuery: ignore,
  logQueryError: ignore,
  logQuerySlow: ignore,
  logSchemaBuild: ignore,
  logMigration: ignore,
  log: ignore,
};

/**
 * The single definition of how we reach PostgreSQL, shared by the Nest app, the TypeORM CLI
 * (ormconfig.ts) and the tests. Schema changes go through migrations only. With `timeouts` (the
 * app's connections) every statement, lock wait, idle transaction and connection attempt is
 * bounded; migrations run without them (an index build may take minutes).
 */
export function dataSourceOptions(databaseUrl: string, poolSize = 10, timeouts?: TimeoutsConfig): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    migrationsRun: false,
    // TypeORM logs nothing. Its loggers print statements with their parameters (emails, names, link
    // contexts) and driver messages that quote values, and one kind, migration failures, is printed
    // whatever `logging` says. Failed queries are logged where they are caught, by describeError.
    logging: false,
    logger: SILENT_LOGGER,
    extra: {
      max: poolSize,
      application_name: 'engagement-api',
      keepAlive: true,
      ...(timeouts && {
        statement_timeout: timeouts.databaseStatementMs,
        lock_timeout: timeouts.databaseLockMs,
        idle_in_transaction_session_timeout: timeouts.databaseIdleInTransactionMs,
        // A server that never answers (stalled connection) is given up on by the client itself.
        Client: stallAwareClient(timeouts.databaseStatementMs + READ_MARGIN_MS),
        // Both opening a connection and waiting for a free one in the pool.
        connectionTimeoutMillis: timeouts.databaseConnectMs,
      }),
    },
  };
}

/**
 * The options of a connection that runs migrations. On a Citus cluster an upgrade's migrations run on
 * distributed tables, where a statement that touched every shard in parallel (DDL on a distributed
 * table, a backfill reading one) forbids a later one in the same transaction from creating a function
 * or a table ("cannot run function command because there was a parallel operation on a distributed
 * table in the transaction"): sequential mode sends multi-shard commands over one connection per
 * worker, so a migration's statements may come in any order. On plain PostgreSQL the setting is an
 * inert placeholder.
 */
export function migrationDataSourceOptions(databaseUrl: string, poolSize = 1): DataSourceOptions {
  const options = dataSourceOptions(databaseUrl, poolSize);
  return { ...options, extra: { ...options.extra, options: '-c citus.multi_shard_modify_mode=sequential' } };
}
