import { Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_CONFIG_KEY, AppConfigService } from './app-config';
import type { AppConfig } from './environment';

/**
 * Wraps @nestjs/config around a configuration that was validated before Nest started
 * (loadConfig), so a bad variable stops the process before any module initialises.
 */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig) {
    return {
      module: AppConfigModule,
      imports: [ConfigModule.forRoot({ ignoreEnvFile: true, load: [() => ({ [APP_CONFIG_KEY]: config })] })],
      providers: [AppConfigService],
      exports: [AppConfigService],
    };
  }
}
