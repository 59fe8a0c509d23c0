import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { HttpPipelineModule } from './common/pipeline/http-pipeline.module';
import { LimitsModule } from './common/limits/limits.module';
import { BullRedisModule } from './common/queue/bull-redis';
import { MAX_STALLED_COUNT } from './common/queue/job-options';
import { readsReplicas, ReadRoutingModule } from './database/read-routing';
import { CountCacheModule } from './common/pagination/count-cache.module';
import { loggerParams } from './common/logging';
import { MetricsModule } from './common/metrics/metrics.module';
import { QueueFailureLogModule } from './common/queue/queue-failure-log';
import { RedisModule } from './common/redis/redis.module';
import { ShutdownModule } from './common/shutdown/shutdown.module';
import { AppConfigModule } from './config/config.module';
import type { AppConfig } from './config/environment';
import { dataSourceOptions } from './database/data-source-options';
import { ApiKeysModule } from './modules/api-keys/api-keys.module';
import { AccountsHttpModule } from './modules/accounts/accounts.module';
import { DemoModule } from './modules/demo/demo.module';
import { seedsOnFirstRun } from './modules/demo/first-run';
import { CampaignsHttpModule } from './modules/campaigns/campaigns.module';
import { CustomLinksHttpModule } from './modules/custom-links/custom-links.module';
import { CustomLinksWorkerModule } from './modules/custom-links/custom-links.module';
import { EngagementHttpModule, EngagementWorkerModule } from './modules/engagement';
import { CustomLinkJobsHttpModule } from './modules/custom-link-jobs';
import { ThumbnailsHttpModule, ThumbnailsWorkerModule } from './modules/thumbnails';
import { HealthModule } from './modules/health/health.module';
import { MaintenanceModule } from './modules/maintenance/maintenance.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { PeopleHttpModule } from './modules/people/people.module';
import { AgentHttpModule, AgentWorkerModule } from './modules/agent';
import { PlaybookHttpModule } from './modules/playbook';
import { PeopleWorkerModule } from './modules/people/people.module';
import { SessionsHttpModule, SessionsModule } from './modules/sessions';
import { UsageHttpModule } from './modules/usage';
import { WebhooksHttpModule, WebhooksWorkerModule } from './modules/webhooks';
import { ExportsHttpModule, ExportsWorkerModule } from './modules/exports';
import { SettingsHttpModule } from './modules/settings';
import { PrivacyHttpModule, PrivacyWorkerModule } from './modules/privacy';

/** Where logs go instead of stdout (tests that read them). */
export interface AppModuleOptions {
  logDestination?: DestinationStream;
}

/** Infrastructure every role needs: config, logs, PostgreSQL, Redis, Bull, limits, shutdown. */
export function infrastructureModules(config: AppConfig, options: AppModuleOptions = {}) {
  return [
    AppConfigModule.forRoot(config),
    LoggerModule.forRoot(loggerParams(config, options.logDestination)),
    TypeOrmModule.forRoot(dataSourceOptions(config.databaseUrl, config.databasePoolSize, config.timeouts)),
    BullRedisModule.forRoot(config, {
      lockDuration: config.queueLockDurationMs,
      stalledInterval: config.queueStalledIntervalMs,
      maxStalledCount: MAX_STALLED_COUNT,
    }),
    QueueFailureLogModule,
    MetricsModule,
    RedisModule,
    ...(readsReplicas(config) ? [ReadRoutingModule] : []),
    CountCacheModule,
    LimitsModule,
    ShutdownModule,
  ];
}

/** Domain modules with their HTTP controllers. */
const apiModules = (config: AppConfig) => [
  HttpPipelineModule.forRoot(ApiKeysModule),
  HealthModule.forRoot(config),
  OrganizationsModule,
  ApiKeysModule,
  CampaignsHttpModule,
  SessionsHttpModule,
  PeopleHttpModule,
  AccountsHttpModule,
  CustomLinksHttpModule,
  CustomLinkJobsHttpModule,
  EngagementHttpModule,
  ThumbnailsHttpModule,
  PlaybookHttpModule,
  AgentHttpModule,
  UsageHttpModule,
  WebhooksHttpModule,
  ExportsHttpModule,
  SettingsHttpModule,
  PrivacyHttpModule,
];

/** Queue processors, only where APP_ROLE runs workers (SessionsModule implements the sessions people and engagement read). */
const WORKER_MODULES = [
  MaintenanceModule,
  SessionsModule,
  PeopleWorkerModule,
  CustomLinksWorkerModule,
  ThumbnailsWorkerModule,
  EngagementWorkerModule,
  AgentWorkerModule,
  WebhooksWorkerModule,
  ExportsWorkerModule,
  PrivacyWorkerModule,
];

/**
 * One image, three roles (APP_ROLE): `api` serves HTTP, `worker` runs queue processors,
 * `all` does both (development, small installs).
 */
@Module({})
export class AppModule {
  static forRole(config: AppConfig, options: AppModuleOptions = {}): DynamicModule {
    const serveHttp = config.appRole !== 'worker';
    const runWorkers = config.appRole !== 'api';
    return {
      module: AppModule,
      imports: [
        ...infrastructureModules(config, options),
        ...(serveHttp ? apiModules(config) : [HealthModule.forRoot(config)]),
        ...(runWorkers ? WORKER_MODULES : []),
        // A development server seeds demo data on its first start.
        ...(seedsOnFirstRun(config) ? [DemoModule] : []),
      ],
    };
  }
}
