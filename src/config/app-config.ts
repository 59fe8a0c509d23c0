import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from './environment';

export const APP_CONFIG_KEY = 'app';

/** Typed access to the validated configuration that ConfigModule loaded. */
@Injectable()
export class AppConfigService {
  readonly values: AppConfig;

  constructor(config: ConfigService) {
    this.values = config.getOrThrow<AppConfig>(APP_CONFIG_KEY);
  }
}
