import { DataSource } from 'typeorm';
import { loadConfigOrExit } from './src/config/environment';
import { dataSourceOptions } from './src/database/data-source-options';

/**
 * The DataSource of the TypeORM CLI, built to dist/ormconfig.js: `npx typeorm -d dist/ormconfig.js
 * migration:show` after `npm run build`. The application and `npm run migration:run` (src/cli.ts)
 * use the same options with TypeORM's logger silenced; here the CLI prints what the command asks
 * for, such as which migrations have run.
 */
const config = loadConfigOrExit();
export default new DataSource({ ...dataSourceOptions(config.databaseUrl), logger: 'advanced-console' });
