import { Test } from '@nestjs/testing';
import { AppModule } from '../src/app.module';
import { loadConfig } from '../src/config/environment';
import { RENDER_WORKER } from '../src/modules/thumbnails/card-renderer';
import { BUILT_RENDER_WORKER } from './support/test-app';

/**
 * Each role (APP_ROLE) loads its own modules, and every port those modules use must have its
 * implementation among them: a start that misses one fails naming the port (src/common/wiring).
 */
describe('the roles of the app', () => {
  it.each(['api', 'worker', 'all'] as const)('APP_ROLE=%s starts with every port implemented', async (role) => {
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', APP_ROLE: role });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRole(config)] })
      .overrideProvider(RENDER_WORKER)
      .useValue(BUILT_RENDER_WORKER)
      .compile();
    const app = moduleRef.createNestApplication();
    await app.init();
    await app.close();
  });
});
