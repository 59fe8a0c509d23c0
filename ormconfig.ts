import { DataSource } from 'typeorm';
import { loadConfigOrExit } from './src/config/environment';
import { dataSourceOptions } from './src/database/data-source-options';

// The DataSource of the TypeORM CLI (`npm run migration:run`); built to dist/ormconfig.js.
const config = loadConfigOrExit();
export default new DataSource(dataSourceOptions(config.databaseUrl));
