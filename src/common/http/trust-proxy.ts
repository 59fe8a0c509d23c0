import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Express } from 'express';
import { AppConfigService } from '../../config/app-config';

/**
 * Applies TRUST_PROXY as Express's `trust proxy` setting, which `req.ip` (the client address of the
 * per-client limits) follows: by default the connection's peer, since X-Forwarded-For from a client
 * that reaches the service directly is whatever that client wants it to be.
 */
@Injectable()
export class TrustProxySetting implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfigService,
  ) {}

  onModuleInit(): void {
    this.adapterHost.httpAdapter?.getInstance<Express>().set('trust proxy', this.config.values.trustProxy);
  }
}
