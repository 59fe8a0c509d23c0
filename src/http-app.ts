import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { answerNotModifiedOnlyWithETag } from './common/http/explicit-not-modified';
import { LeanExpressAdapter } from './common/http/lean-express-adapter';
import { lingerOnClose } from './common/http/lingering-close';
import { mountQueueBoard } from './common/http/queue-board';
import { createOpenApiDocument } from './common/http/openapi-document';
import { webhookDocumentation } from './modules/webhooks';
import { readContextMiddleware } from './common/database/read-context';
import { readsReplicas } from './database/read-routing';
import { requestIdMiddleware } from './common/http/request-id.middleware';
import { recordRequestDuration } from './common/metrics/request-metrics';
import { apiSecurityHeaders, corsOptions, docsSecurityHeaders } from './common/http/security-headers';
import { undecodablePathMiddleware } from './common/http/undecodable-path.middleware';
import { AppModule } from './app.module';
import { AppConfigService } from './config/app-config';
import type { AppConfig } from './config/environment';

const DOCS_PATH = 'docs';

/**
 * Applies what every HTTP instance needs, in the order requests meet it: request id, request
 * duration metric, security and cache headers, CORS when CORS_ORIGINS names origins (preflights
 * end there), then Nest's routing and pipeline (which reads the JSON body once the caller is
 * authenticated). Used by main.ts and the e2e tests alike.
 */
export function configureHttpApp(app: NestExpressApplication): INestApplication {
  const config = app.get(AppConfigService).values;
  app.disable('x-powered-by');
  // A refused request's client may still be sending: read up to the largest route's body (link
  // creation and events take 5 MiB) for at most 2 s, or until it is silent for 100 ms, before
  // closing, so the answer reaches it.
  lingerOnClose(app.getHttpServer(), { maxMs: 2000, maxBytes: 5 * 1024 * 1024, idleMs: 100 });
  // No automatic ETag (a hash of every body): only the polled job resources carry one (ConditionalGet).
  app.set('etag', false);
  app.use(requestIdMiddleware);
  // Which statements of the request replicas may serve (read-routing.ts): only with replicas configured.
  if (readsReplicas(config)) app.use(readContextMiddleware);
  app.use(recordRequestDuration);
  answerNotModifiedOnlyWithETag(app.getHttpAdapter().getInstance());
  app.use(apiSecurityHeaders);
  app.use(`/${DOCS_PATH}`, docsSecurityHeaders);
  if (config.corsOrigins.length > 0) app.enableCors(corsOptions(config.corsOrigins));
  // Before routing: a path that does not decode is a 404, not a router error.
  app.use(undecodablePathMiddleware);
  app.useLogger(app.get(Logger));
  const { adminToken, docsEnabled } = config.operations;
  if (adminToken !== null) mountQueueBoard(app, adminToken);
  // DOCS_ENABLED=false: neither the UI nor the JSON document is served (both unknown routes, 404).
  if (docsEnabled) setUpDocs(app, config.publicBaseUrl);
  return app;
}

function setUpDocs(app: NestExpressApplication, publicBaseUrl: string): void {
  const document = createOpenApiDocument(app, publicBaseUrl, webhookDocumentation());
  SwaggerModule.setup(DOCS_PATH, app, document, { jsonDocumentUrl: 'api/v1/openapi.json', raw: ['json'] });
}

export async function createHttpApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRole(config), new LeanExpressAdapter(), {
    bodyParser: false,
    bufferLogs: true,
  });
  configureHttpApp(app);
  return app;
}
