import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { WEBHOOK_EVENT_TYPES } from '../src/modules/webhooks/webhook-event-types';
import type { SessionPage } from './support/api-types';
import { OPENAPI_PATH } from './support/openapi-operations';
import { ingest, sessionBody } from './support/sessions';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

/**
 * Clients generated from openapi.json by generators nobody here wrote (issue 29 point 3): the
 * document read by @hey-api/openapi-ts 0.99 (its defaults: @hey-api/client-fetch, typescript, sdk)
 * and by openapi-typescript 7, with no error or warning; a program using the hey-api client (a
 * multi-value filter, a nullable field, the webhook payload types) compiles with the project's
 * TypeScript with zero errors, and run against the app its multi-value filter selects what the
 * comma form selects.
 */

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..');
const HEY_API_CLI = join(ROOT, 'node_modules/@hey-api/openapi-ts/bin/run.js');
const OPENAPI_TYPESCRIPT_CLI = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/**
 * openapi-typescript lints the document with the project's redocly.yaml first and prints its
 * warnings on stderr: these two are the ones redocly.yaml lists and justifies (src/openapi.spec.ts
 * expects exactly them). Any other line on stderr fails.
 */
const ACCEPTED_LINT_WARNINGS = ['at #/servers/0/url', 'at #/paths/~1l~1{slug}/get/responses'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node CLI with the tests' own Node and no colours. */
function run(script: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface WebhookPayload {
  /** The components schema a `webhooks` entry's request body refers to. */
  schema: string;
  /** The event type its `type` property admits. */
  eventType: string | undefined;
  headers: string[];
}

type Schema = { $ref?: string; properties?: Record<string, { const?: string; enum?: string[] }> };
interface Document {
  components: { schemas: Record<string, Schema> };
  webhooks?: Record<
    string,
    Record<
      string,
      { parameters?: { in: string; name: string }[]; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >;
}

function webhookPayloads(document: Document): WebhookPayload[] {
  return Object.values(document.webhooks ?? {}).flatMap((item) =>
    Object.values(item).map((operation) => {
      const schema = (operation.requestBody?.content['application/json']?.schema.$ref ?? '').replace(
        '#/components/schemas/',
        '',
      );
      const type = document.components.schemas[schema]?.properties?.type;
      return {
        schema,
        eventType: type?.const ?? type?.enum?.[0],
        headers: (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()),
      };
    }),
  );
}

/** The program using the hey-api client; run as `node program.js <baseUrl> <key> <session id without a link>`. */
function heyApiProgram(payloads: WebhookPayload[]): string {
  const schemas = payloads.map((p) => p.schema);
  return `import { createClient } from './hey-api/client/index.js';
import { sessionsGet, sessionsList } from './hey-api/sdk.gen.js';
import type { SessionDetailResponse${schemas.map((name) => `, ${name}`).join('')} } from './hey-api/types.gen.js';

// A nullable property is typed as possibly null: null is assignable to it.
export const noLifecycle: SessionDetailResponse['lifecycle'] = null;

// Each webhook payload type: its event type, its timestamp and its data.
${payloads.map((p) => `export const on${p.schema} = (event: ${p.schema}): [${JSON.stringify(p.eventType)}, string, unknown] => [event.type, event.timestamp, event.data];`).join('\n')}

async function main(): Promise<void> {
  const [baseUrl, key, bareSessionId] = process.argv.slice(2);
  const client = createClient({ baseUrl, headers: { 'x-api-key': key } });
  const listed = await sessionsList({ client, query: { buying_intent: ['high', 'medium'], limit: 200 } });
  if (!listed.data) throw new Error(\`GET /api/v1/sessions: HTTP \${listed.response?.status}\`);
  const detail = await sessionsGet({ client, path: { session_id: bareSessionId } });
  if (!detail.data) throw new Error(\`GET /api/v1/sessions/{id}: HTTP \${detail.response?.status}\`);
  const lifecycle = detail.data.lifecycle;
  const result = {
    url: listed.request?.url,
    ids: listed.data.sessions.map((session) => session.id).sort(),
    lifecycleStage: lifecycle === null ? null : lifecycle.stage,
  };
  process.stdout.write(JSON.stringify(result));
}

main().catch((error: unknown) => {
  process.stderr.write(String(error));
  process.exit(1);
});
`;
}

/** Type-level uses of openapi-typescript's output: the same filter, the same nullable field, the payload types. */
function openapiTypescriptProgram(payloads: WebhookPayload[]): string {
  return `import type { components, paths } from './openapi-typescript/schema.js';

type SessionsQuery = NonNullable<paths['/api/v1/sessions']['get']['parameters']['query']>;
export const filter: SessionsQuery = { buying_intent: ['high', 'medium'] };
export const noLifecycle: components['schemas']['SessionDetailResponse']['lifecycle'] = null;
${payloads.map((p) => `export const type${p.schema}: components['schemas'][${JSON.stringify(p.schema)}]['type'] = ${JSON.stringify(p.eventType)};`).join('\n')}
`;
}

describe('clients generated from openapi.json', () => {
  const document = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as Document;
  const payloads = webhookPayloads(document);
  let dir: string;
  let heyApi: Run;
  let openapiTypescript: Run;
  let tsc: Run;
  let t: TestApp;
  let tenant: Tenant;
  let bareSession: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'generated-clients-'));
    // nodenext + "type": "module": the generated imports end in .js, and node runs the output as ESM.
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2023',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2023', 'dom', 'dom.iterable'],
          strict: true,
          skipLibCheck: false,
          outDir: 'dist',
          rootDir: '.',
          typeRoots: [join(ROOT, 'node_modules/@types')],
          types: ['node'],
        },
        include: ['*.ts', 'hey-api/**/*.ts', 'openapi-typescript/*.ts'],
      }),
    );
    mkdirSync(join(dir, 'openapi-typescript'));
    [heyApi, openapiTypescript] = await Promise.all([
      run(HEY_API_CLI, ['--input', OPENAPI_PATH, '--output', join(dir, 'hey-api'), '--no-log-file'], dir),
      run(
        OPENAPI_TYPESCRIPT_CLI,
        [
          OPENAPI_PATH,
          '--output',
          join(dir, 'openapi-typescript', 'schema.d.ts'),
          '--redocly',
          join(ROOT, 'redocly.yaml'),
        ],
        dir,
      ),
    ]);
    writeFileSync(join(dir, 'program.ts'), heyApiProgram(payloads));
    writeFileSync(join(dir, 'openapi-typescript-types.ts'), openapiTypescriptProgram(payloads));
    tsc = await run(TSC, ['-p', join(dir, 'tsconfig.json')], dir);

    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    await t.app.listen(0, '127.0.0.1');
    tenant = await t.createTenant();
    for (const buyingIntent of ['high', 'medium', 'low'])
      await ingest(t.server, tenant.key, randomUUID(), sessionBody({ buyingIntent })).expect(200);
    bareSession = randomUUID();
    await ingest(t.server, tenant.key, bareSession, { startTime: '2026-11-21T09:00:00Z' }).expect(200);
  });

  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('both generators read the document with no error and no warning', () => {
    expect(heyApi).toMatchObject({ code: 0, stderr: '' });
    expect(heyApi.stdout).not.toMatch(/warn|error/i);
    expect(openapiTypescript.code).toBe(0);
    const lines = openapiTypescript.stderr
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    expect(lines.filter((line) => !ACCEPTED_LINT_WARNINGS.some((accepted) => line.endsWith(accepted)))).toEqual([]);
    expect(openapiTypescript.stdout).not.toMatch(/error/i);
  });

  it('a program using both generated clients compiles with zero errors (multi-value filter, nullable field, webhook payloads)', () => {
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  });

  it("the hey-api client's multi-value filter selects what the comma form selects, and a missing lifecycle is null", async () => {
    const program = await run(
      join(dir, 'dist', 'program.js'),
      [`http://127.0.0.1:${(t.server.address() as AddressInfo).port}`, tenant.key, bareSession],
      dir,
    );
    expect(program).toMatchObject({ code: 0, stderr: '' });
    const result = JSON.parse(program.stdout) as { url: string; ids: string[]; lifecycleStage: string | null };
    const comma = await request(t.server)
      .get('/api/v1/sessions?buying_intent=high,medium&limit=200')
      .set('x-api-key', tenant.key)
      .expect(200);
    const commaIds = (comma.body as SessionPage).sessions.map((session) => session.id).sort();
    expect(commaIds).toHaveLength(2);
    expect({ url: result.url, ids: result.ids }).toEqual({ url: result.url, ids: commaIds });
    expect(result.lifecycleStage).toBeNull();
  });

  it('webhook payload types come from the document: one per event type, each with the webhook-* headers', () => {
    expect(payloads.map((p) => p.schema)).toContain('CustomLinkOpenedWebhookEvent');
    expect(payloads.map((p) => p.eventType).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const payload of payloads)
      expect({ schema: payload.schema, headers: [...payload.headers].sort() }).toEqual({
        schema: payload.schema,
        headers: ['webhook-id', 'webhook-signature', 'webhook-timestamp'],
      });
  });
});
