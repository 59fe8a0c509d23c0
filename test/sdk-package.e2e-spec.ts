import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import type { WebhookEndpointWithSecret } from './support/api-types';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';

/**
 * The SDK as a user gets it (issue 29 point 4): client/ packed with `npm pack`, installed from the
 * tarball into an empty folder outside the repository, and a TypeScript program there compiled with
 * zero errors and run against the running app: a multi-value filter, a cursor walk and the check of
 * a webhook delivery the app sent to a local receiver.
 */

const ROOT = join(__dirname, '..');
const run = promisify(execFile);
/** npm's children of `npm test` inherit npm_* variables (the repository's prefix and package among them): none of them here. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
const exec = (file: string, args: string[], cwd: string, env: Record<string, string | undefined> = cleanEnv()) =>
  run(file, args, { cwd, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 90_000 });

/** The consumer: nothing of the repository, only the installed package (ESM importing its CommonJS build). */
const CONSUMER = `
import { readFileSync } from 'node:fs';
import { createApiClient, verifyWebhook, WebhookVerificationError, type components, type WebhookEvent, type WebhookEventType } from '@engagement/api-client';

const [baseUrl, apiKey, deliveryFile, secret] = process.argv.slice(2);
const api = createApiClient(baseUrl, apiKey);
type Session = components['schemas']['SessionResponse'];
type Intent = NonNullable<Session['buyingIntent']>;

/** Every page of the sessions list: each page's nextCursor is the next request's cursor. */
async function allSessions(buyingIntent?: Intent[]): Promise<{ ids: string[]; pages: number; totals: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  let cursor: string | undefined;
  do {
    const { data, error, response } = await api.GET('/api/v1/sessions', { params: { query: { buying_intent: buyingIntent, limit: 2, cursor } } });
    if (!data) throw new Error(\`HTTP \${response.status}: \${JSON.stringify(error)}\`);
    ids.push(...data.sessions.map((s: Session) => s.id));
    totals.push(data.pagination.total);
    cursor = data.pagination.nextCursor ?? undefined;
  } while (cursor !== undefined && totals.length < 10);
  return { ids, pages: totals.length, totals };
}

/** The README's daily series (docs/api.md §6.9), and the same rows as CSV (parseAs: 'text'). */
async function dailySeries(): Promise<{ keys: string[]; opens: number[]; csv: string }> {
  const query = { metrics: ['opens', 'visitors'] as ('opens' | 'visitors')[], group_by: 'time' as const, interval: 'day' as const, from: '2026-03-01', to: '2026-03-04', timezone: 'Europe/Berlin' };
  const { data } = await api.GET('/api/v1/analytics', { params: { query } });
  const csv = await api.GET('/api/v1/analytics', { params: { query: { ...query, format: 'csv' } }, parseAs: 'text' });
  return { keys: data!.rows.map((day) => day.key ?? ''), opens: data!.rows.map((day) => day.opens ?? -1), csv: csv.data ?? '' };
}

function subjectOf(event: WebhookEvent): string {
  switch (event.type) {
    case 'session.analyzed':
      return \`session \${event.data.id} (\${event.data.buyingIntent ?? 'no intent'})\`;
    case 'custom_link_job.finished':
      return \`job \${event.data.id} \${event.data.status}\`;
    case 'agent_publish_job.finished':
      return \`publish job \${event.data.jobId} \${event.data.status}\`;
    case 'custom_link.opened':
    case 'custom_link.session_started':
    case 'custom_link.engaged':
    case 'custom_link.lead':
    case 'custom_link.meeting_booked':
      return \`link \${event.data.id}\`;
    case 'custom_link.expired':
      return \`link \${event.data.id} \${event.data.reason}\`;
    case 'person.erased':
      return \`erasure \${event.data.erasureId}\`;
    default: {
      const unknown: never = event;
      return String(unknown);
    }
  }
}

const delivery = JSON.parse(readFileSync(deliveryFile, 'utf8')) as { body: string; headers: Record<string, string | string[] | undefined> };
const event = verifyWebhook(delivery.body, delivery.headers, secret);
const type: WebhookEventType = event.type;
const fetchHeaders = new Headers(Object.entries(delivery.headers).filter((h): h is [string, string] => typeof h[1] === 'string'));
const viaFetchHeaders = verifyWebhook(Buffer.from(delivery.body), fetchHeaders, secret).type;
let tampered = 'accepted';
try {
  verifyWebhook(delivery.body.replace('"data":{', '"data":{"x":1,'), delivery.headers, secret);
} catch (error) {
  tampered = error instanceof WebhookVerificationError ? 'WebhookVerificationError' : String(error);
}

console.log(JSON.stringify({
  all: await allSessions(),
  highOrMedium: await allSessions(['high', 'medium']),
  webhook: { type, subject: subjectOf(event), viaFetchHeaders, tampered },
  series: await dailySeries(),
}));
`;

const CONSUMER_TSCONFIG = {
  // No DOM: a Node service's settings. skipLibCheck off: the package's declarations compile too.
  compilerOptions: {
    module: 'nodenext',
    target: 'es2022',
    lib: ['es2022'],
    types: ['node'],
    strict: true,
    skipLibCheck: false,
    outDir: 'out',
  },
  files: ['consumer.ts'],
};

interface ConsumerOutput {
  all: { ids: string[]; pages: number; totals: number[] };
  highOrMedium: { ids: string[]; pages: number; totals: number[] };
  webhook: { type: string; subject: string; viaFetchHeaders: string; tampered: string };
  series: { keys: string[]; opens: number[]; csv: string };
}

/** A local endpoint that records every request (raw body and headers) and answers 204. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `npm pack` of client/ (its prepack builds it) into a folder of its own; the tarball's path. */
async function packClient(): Promise<string> {
  const destination = mkdtempSync(join(tmpdir(), 'sdk-pack-'));
  await exec('npm', ['pack', '--pack-destination', destination], join(ROOT, 'client'));
  const [tarball] = readdirSync(destination).filter((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${destination}`);
  return join(destination, tarball);
}

/** An empty folder outside the repository with the tarball, TypeScript and Node's types installed, and the consumer compiled. */
async function installConsumer(tarball: string): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'sdk-consumer-'));
  const devDependencies = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
  ).devDependencies;
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }));
  await exec(
    'npm',
    [
      'install',
      tarball,
      `typescript@${devDependencies.typescript}`,
      `@types/node@${devDependencies['@types/node']}`,
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
    ],
    folder,
  );
  writeFileSync(join(folder, 'consumer.ts'), CONSUMER);
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG));
  return folder;
}

describe('the SDK package (client/) installed from its tarball', () => {
  let t: TestApp;
  let who: Tenant;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let consumer: string;
  let tarball: string;
  const sessions: Record<'high1' | 'high2' | 'medium' | 'low', string> = {
    high1: newSessionId(),
    high2: newSessionId(),
    medium: newSessionId(),
    low: newSessionId(),
  };

  let isolated: IsolatedServices | undefined;

  /** Starts the app, subscribes an endpoint to session.analyzed and seeds four analyzed sessions; the endpoint's secret. */
  async function startApp(): Promise<string> {
    // Its deliveries go to a local receiver: a database and queues of its own (isolated-database.ts).
    isolated = await isolatedServices('sdk');
    t = await createTestApp({
      ...isolated.env,
      APP_ROLE: 'all',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_DISPATCH_INTERVAL_MS: '50',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    await t.app.listen(0, '127.0.0.1');
    receiver = await startReceiver();
    who = await t.createTenant();
    const endpoint = await request(t.server)
      .post('/api/v1/webhook-endpoints')
      .set('Authorization', `Bearer ${who.key}`)
      .send({ url: receiver.url, eventTypes: ['session.analyzed'] })
      .expect(201);
    const intents = { high1: 'high', high2: 'high', medium: 'medium', low: 'low' } as const;
    let minute = 0;
    for (const [name, id] of Object.entries(sessions) as [keyof typeof sessions, string][]) {
      const startTime = `2026-11-20T10:0${minute++}:00.000Z`;
      await ingest(
        t.server,
        who.key,
        id,
        sessionBody({ buyingIntent: intents[name], startTime, endTime: startTime.replace('T10', 'T11') }),
      ).expect(200);
    }
    return (endpoint.body as WebhookEndpointWithSecret).secret;
  }

  let output: ConsumerOutput;
  let installed: { name: string; main: string; dependencies: Record<string, string> };

  beforeAll(async () => {
    // Packing and installing (npm, tsc) overlap the app's start and its first deliveries.
    const [folder, secret] = await Promise.all([
      packClient().then(async (file) => installConsumer((tarball = file))),
      startApp(),
    ]);
    consumer = folder;
    installed = JSON.parse(
      readFileSync(join(consumer, 'node_modules/@engagement/api-client/package.json'), 'utf8'),
    ) as typeof installed;
    await exec(process.execPath, [join(consumer, 'node_modules/typescript/bin/tsc'), '-p', consumer], consumer).catch(
      (error: { stdout?: string }) => {
        throw new Error(`the consumer does not compile:\n${error.stdout ?? String(error)}`);
      },
    );

    await eventually(async () => receiver.received.some((r) => r.body.includes(sessions.high1)), 20_000);
    const delivery = receiver.received.find((r) => r.body.includes(sessions.high1))!;
    writeFileSync(join(consumer, 'delivery.json'), JSON.stringify(delivery));
    const address = t.server.address() as AddressInfo;
    const { stdout } = await exec(
      process.execPath,
      ['out/consumer.js', `http://127.0.0.1:${address.port}`, who.key, join(consumer, 'delivery.json'), secret],
      consumer,
    );
    output = JSON.parse(stdout) as ConsumerOutput;
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await t?.close();
    await isolated?.drop();
    for (const folder of [consumer, tarball && join(tarball, '..')])
      if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('installs as a package of its own: the API version, its build, its dependencies (loads with require too)', async () => {
    const api = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as { info: { version: string } };
    expect(installed).toMatchObject({
      name: '@engagement/api-client',
      version: api.info.version,
      main: './dist/index.js',
      dependencies: { 'openapi-fetch': '0.17.0', standardwebhooks: '1.1.1' },
    });
    expect(consumer.startsWith(ROOT)).toBe(false);
    const { stdout } = await exec(
      process.execPath,
      ['-e', "const sdk = require('@engagement/api-client'); console.log(Object.keys(sdk).sort().join(','))"],
      consumer,
    );
    expect(stdout.trim()).toBe('WebhookVerificationError,createApiClient,verifyWebhook');
  });

  it('follows nextCursor as cursor over every page', () => {
    expect(output.all.pages).toBe(2);
    expect(output.all.totals).toEqual([4, 4]);
    expect([...output.all.ids].sort()).toEqual(Object.values(sessions).sort());
  });

  it('lists with a multi-value filter as the generated client sends it (repeated keys): high or medium', () => {
    // openapi-fetch sends ?buying_intent=high&buying_intent=medium (the document declares no style).
    expect(output.highOrMedium.totals[0]).toBe(3);
    expect([...output.highOrMedium.ids].sort()).toEqual([sessions.high1, sessions.high2, sessions.medium].sort());
  });

  it('verifies the delivered webhook and types its event; a tampered body throws WebhookVerificationError', () => {
    expect(output.webhook).toEqual({
      type: 'session.analyzed',
      subject: `session ${sessions.high1} (high)`,
      viaFetchHeaders: 'session.analyzed',
      tampered: 'WebhookVerificationError',
    });
  });

  it("answers the README's daily series (typed JSON by default) and its CSV with parseAs: 'text'", () => {
    const keys = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04'].map((day) => `${day}T00:00:00.000+01:00`);
    expect(output.series).toEqual({
      keys,
      opens: [0, 0, 0, 0],
      csv: ['key,opens,visitors', ...keys.map((key) => `${key},0,0`)].map((line) => `${line}\r\n`).join(''),
    });
  });
});
