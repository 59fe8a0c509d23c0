import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AppModule } from './app.module';
import { LeanExpressAdapter } from './common/http/lean-express-adapter';
import { createOpenApiDocument } from './common/http/openapi-document';
import { webhookDocumentation } from './modules/webhooks';
import { loadConfig } from './config/environment';

/**
 * The committed document is built from the defaults, not from this shell's environment, so that
 * every checkout generates the same file; a deployment serves its own PUBLIC_BASE_URL at
 * /api/v1/openapi.json.
 */
const COMMITTED_ENV = { APP_ROLE: 'api', NODE_ENV: 'test', LOG_LEVEL: 'silent' };

/**
 * The OpenAPI document as JSON text, from the code alone: the API role's modules are scanned in
 * Nest's preview mode, which resolves the module graph and the controllers' metadata without
 * instantiating a provider, so nothing connects to PostgreSQL or Redis and no listener opens.
 */
export async function generateOpenApiJson(serverUrl?: string): Promise<string> {
  const config = loadConfig({ ...COMMITTED_ENV, ...(serverUrl ? { PUBLIC_BASE_URL: serverUrl } : {}) });
  const app = await NestFactory.create(AppModule.forRole(config), new LeanExpressAdapter(), {
    preview: true,
    logger: false,
    bodyParser: false,
    abortOnError: false,
  });
  try {
    return `${JSON.stringify(createOpenApiDocument(app, config.publicBaseUrl, webhookDocumentation()), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

/** `npm run openapi [-- --out file] [--server https://api.example.com]`: writes openapi.json at the repository root. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { out: { type: 'string', default: 'openapi.json' }, server: { type: 'string' } },
  });
  const out = resolve(values.out);
  writeFileSync(out, await generateOpenApiJson(values.server));
  process.stdout.write(`${out}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`openapi: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
